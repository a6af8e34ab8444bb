// libcurl, opened with dlopen("libcurl.so.4") by the commands that fetch something, and
// called through the pointers dlsym returns. curl_easy_setopt and curl_easy_getinfo are
// variadic, which Swift cannot call: the typed helpers below pass each kind of argument.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

typedef size_t (*nudge_curl_write_fn)(char *data, size_t size, size_t count, void *context);
typedef int (*nudge_curl_xferinfo_fn)(void *context, curl_off_t download_total, curl_off_t download_now,
                                      curl_off_t upload_total, curl_off_t upload_now);

/// The functions of libcurl that Nudge uses, as dlsym found them.
typedef struct {
    void *library;
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *handle);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
} nudge_curl_api;

/// Opens libcurl and finds its functions; NULL on success, else dlerror's message. The
/// library stays open for the life of the process.
static inline const char *nudge_curl_open(nudge_curl_api *api) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define NUDGE_CURL_FIND(field, name) \
    *(void **)(&api->field) = dlsym(library, name); \
    if (api->field == NULL) return dlerror();
    NUDGE_CURL_FIND(global_init, "curl_global_init")
    NUDGE_CURL_FIND(easy_init, "curl_easy_init")
    NUDGE_CURL_FIND(easy_setopt, "curl_easy_setopt")
    NUDGE_CURL_FIND(easy_perform, "curl_easy_perform")
    NUDGE_CURL_FIND(easy_getinfo, "curl_easy_getinfo")
    NUDGE_CURL_FIND(easy_cleanup, "curl_easy_cleanup")
    NUDGE_CURL_FIND(easy_strerror, "curl_easy_strerror")
#undef NUDGE_CURL_FIND
    api->library = library;
    return NULL;
}

static inline CURLcode nudge_curl_global_init(const nudge_curl_api *api) {
    return api->global_init(CURL_GLOBAL_DEFAULT);
}

static inline CURL *nudge_curl_easy_init(const nudge_curl_api *api) { return api->easy_init(); }

static inline CURLcode nudge_curl_perform(const nudge_curl_api *api, CURL *handle) {
    return api->easy_perform(handle);
}

static inline void nudge_curl_cleanup(const nudge_curl_api *api, CURL *handle) { api->easy_cleanup(handle); }

static inline const char *nudge_curl_strerror(const nudge_curl_api *api, CURLcode code) {
    return api->easy_strerror(code);
}

static inline CURLcode nudge_curl_setopt_long(const nudge_curl_api *api, CURL *handle, CURLoption option, long value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode nudge_curl_setopt_off_t(const nudge_curl_api *api, CURL *handle, CURLoption option, curl_off_t value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode nudge_curl_setopt_pointer(const nudge_curl_api *api, CURL *handle, CURLoption option, const void *value) {
    return api->easy_setopt(handle, option, value);
}

static inline CURLcode nudge_curl_setopt_write(const nudge_curl_api *api, CURL *handle, nudge_curl_write_fn function) {
    return api->easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
}

static inline CURLcode nudge_curl_setopt_header(const nudge_curl_api *api, CURL *handle, nudge_curl_write_fn function) {
    return api->easy_setopt(handle, CURLOPT_HEADERFUNCTION, function);
}

static inline CURLcode nudge_curl_setopt_xferinfo(const nudge_curl_api *api, CURL *handle, nudge_curl_xferinfo_fn function) {
    return api->easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

static inline CURLcode nudge_curl_getinfo_long(const nudge_curl_api *api, CURL *handle, CURLINFO info, long *value) {
    return api->easy_getinfo(handle, info, value);
}

static inline CURLcode nudge_curl_getinfo_string(const nudge_curl_api *api, CURL *handle, CURLINFO info, char **value) {
    return api->easy_getinfo(handle, info, value);
}

static inline CURLcode nudge_curl_getinfo_off_t(const nudge_curl_api *api, CURL *handle, CURLINFO info, curl_off_t *value) {
    return api->easy_getinfo(handle, info, value);
}
