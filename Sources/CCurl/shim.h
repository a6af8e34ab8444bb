// libcurl's declarations only: the library is opened with dlopen on first use, by the commands
// that fetch something, and called through the pointers dlsym returns. curl_easy_setopt and
// curl_easy_getinfo are variadic, which Swift cannot call: the typed helpers below pass each
// kind of argument.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include "../CLibraryTable/library_table.h"
#include <stddef.h>

typedef size_t (*nudge_curl_write_fn)(char *data, size_t size, size_t count, void *context);
typedef int (*nudge_curl_xferinfo_fn)(void *context, curl_off_t download_total, curl_off_t download_now,
                                      curl_off_t upload_total, curl_off_t upload_now);

/// The functions of libcurl that Nudge uses.
#define NUDGE_CURL_FUNCTIONS(X) \
    X(curl_easy_cleanup) \
    X(curl_easy_getinfo) \
    X(curl_easy_init) \
    X(curl_easy_perform) \
    X(curl_easy_setopt) \
    X(curl_easy_strerror) \
    X(curl_global_init)

/// nudge_curl_api: each function as dlsym found it, under its own name.
NUDGE_LIBRARY_TABLE(nudge_curl_api, NUDGE_CURL_FUNCTIONS)

static inline CURLcode nudge_curl_global_init(const nudge_curl_api *api) {
    return api->curl_global_init(CURL_GLOBAL_DEFAULT);
}

static inline CURL *nudge_curl_easy_init(const nudge_curl_api *api) { return api->curl_easy_init(); }

static inline CURLcode nudge_curl_perform(const nudge_curl_api *api, CURL *handle) {
    return api->curl_easy_perform(handle);
}

static inline void nudge_curl_cleanup(const nudge_curl_api *api, CURL *handle) { api->curl_easy_cleanup(handle); }

static inline const char *nudge_curl_strerror(const nudge_curl_api *api, CURLcode code) {
    return api->curl_easy_strerror(code);
}

static inline CURLcode nudge_curl_setopt_long(const nudge_curl_api *api, CURL *handle, CURLoption option, long value) {
    return api->curl_easy_setopt(handle, option, value);
}

static inline CURLcode nudge_curl_setopt_off_t(const nudge_curl_api *api, CURL *handle, CURLoption option, curl_off_t value) {
    return api->curl_easy_setopt(handle, option, value);
}

static inline CURLcode nudge_curl_setopt_pointer(const nudge_curl_api *api, CURL *handle, CURLoption option, const void *value) {
    return api->curl_easy_setopt(handle, option, value);
}

static inline CURLcode nudge_curl_setopt_write(const nudge_curl_api *api, CURL *handle, nudge_curl_write_fn function) {
    return api->curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
}

static inline CURLcode nudge_curl_setopt_header(const nudge_curl_api *api, CURL *handle, nudge_curl_write_fn function) {
    return api->curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, function);
}

static inline CURLcode nudge_curl_setopt_xferinfo(const nudge_curl_api *api, CURL *handle, nudge_curl_xferinfo_fn function) {
    return api->curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

static inline CURLcode nudge_curl_getinfo_long(const nudge_curl_api *api, CURL *handle, CURLINFO info, long *value) {
    return api->curl_easy_getinfo(handle, info, value);
}

static inline CURLcode nudge_curl_getinfo_string(const nudge_curl_api *api, CURL *handle, CURLINFO info, char **value) {
    return api->curl_easy_getinfo(handle, info, value);
}

static inline CURLcode nudge_curl_getinfo_off_t(const nudge_curl_api *api, CURL *handle, CURLINFO info, curl_off_t *value) {
    return api->curl_easy_getinfo(handle, info, value);
}
