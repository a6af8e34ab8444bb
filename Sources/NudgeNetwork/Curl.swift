import CCurl
import NudgePlatform

/// libcurl, opened on first use: the commands that fetch nothing never map it (`nudge add` and
/// `nudge list` without a quote start as fast as before).
///
/// Unchecked Sendable because C function pointers are not Sendable to Swift: `api` is a `let`
/// set before `shared` hands the instance out and never written again, and libcurl's easy
/// functions may be called from any thread, each call with its own handle.
final class Curl: @unchecked Sendable {
    static let library = CLibrary(soname: "libcurl.so.4", package: "libcurl4")

    let api: nudge_curl_api

    private init(api: nudge_curl_api) {
        self.api = api
    }

    /// The library, opened and initialised once per process (curl_global_init is not
    /// thread-safe; a Swift static is initialised once).
    static let shared: Result<Curl, FetchError> = {
        let api: nudge_curl_api
        do throws(LibraryLoadError) { api = try library.open(nudge_curl_api.self, symbols: nudge_curl_api_symbols()) } catch {
            return .failure(FetchError(.unavailable, error.description))
        }
        let curl = Curl(api: api)
        let code = withUnsafePointer(to: api) { nudge_curl_global_init($0) }
        guard code == CURLE_OK else { return .failure(FetchError(.unavailable, "libcurl cannot start: \(curl.message(code))")) }
        return .success(curl)
    }()

    /// curl_easy_strerror.
    func message(_ code: CURLcode) -> String {
        withUnsafePointer(to: api) { String(cString: nudge_curl_strerror($0, code)) }
    }
}
