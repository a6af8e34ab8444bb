import CCurl

/// libcurl, opened on first use: the commands that fetch nothing never map it (`nudge add` and
/// `nudge list` without a quote start as fast as before).
///
/// Unchecked Sendable because C function pointers are not Sendable to Swift: `api` is a `let`
/// set before `shared` hands the instance out and never written again, and libcurl's easy
/// functions may be called from any thread, each call with its own handle.
final class Curl: @unchecked Sendable {
    let api: nudge_curl_api

    private init(api: nudge_curl_api) {
        self.api = api
    }

    /// The library, opened and initialised once per process (curl_global_init is not
    /// thread-safe; a Swift static is initialised once).
    static let shared: Result<Curl, FetchError> = {
        var api = nudge_curl_api()
        if let message = nudge_curl_open(&api) {
            return .failure(FetchError(.unavailable, "libcurl cannot be loaded (install libcurl4): \(String(cString: message))"))
        }
        let code = nudge_curl_global_init(&api)
        guard code == CURLE_OK else {
            return .failure(FetchError(.unavailable, "libcurl cannot start: \(String(cString: nudge_curl_strerror(&api, code)))"))
        }
        return .success(Curl(api: api))
    }()

    /// curl_easy_strerror.
    func message(_ code: CURLcode) -> String {
        withUnsafePointer(to: api) { String(cString: nudge_curl_strerror($0, code)) }
    }
}
