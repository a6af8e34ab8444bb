import CCurl
import Foundation
import NudgeCore

/// How much a fetch may take: time to connect and to stall, in all, and bytes.
public struct FetchLimits: Sendable {
    /// The longest wait for a connection, and the longest the answer may stall.
    public var timeout: TimeInterval
    /// The longest the whole fetch may take; nil lets a slow but moving download go on.
    public var total: TimeInterval?
    /// The most bytes of body read before giving up.
    public var maxSize: Int
    public var maxRedirects: Int

    public init(timeout: TimeInterval, total: TimeInterval? = nil, maxSize: Int, maxRedirects: Int = 10) {
        self.timeout = timeout
        self.total = total
        self.maxSize = maxSize
        self.maxRedirects = maxRedirects
    }
}

/// Bytes received so far, of the Content-Length when the server sent one.
public struct FetchProgress: Sendable, Equatable {
    public var received: Int64
    public var total: Int64?
}

/// What a server answered: the body, and what the server says it is.
public struct FetchedAnswer: Sendable, Equatable {
    public var body: Data
    /// The Content-Type of the last answer (after redirects), as sent: "text/html; charset=utf-8".
    public var contentType: String?
}

/// GET over http and https, through libcurl (opened on first use).
public enum HTTP {
    /// The body of `url`, following redirects; throws a one-line FetchError for anything but
    /// a 2xx answer within the limits. `progress` is called on this thread as bytes arrive.
    /// The corresponding C function is `curl_easy_perform`.
    public static func get(_ url: String, limits: FetchLimits,
                           progress: ((FetchProgress) -> Void)? = nil) throws(FetchError) -> Data {
        try fetch(url, limits: limits, progress: progress).body
    }

    /// As `get`, with the answer's Content-Type.
    /// The corresponding C function is `curl_easy_perform`.
    public static func fetch(_ url: String, limits: FetchLimits,
                             progress: ((FetchProgress) -> Void)? = nil) throws(FetchError) -> FetchedAnswer {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw FetchError(.badURL, "'\(url)' is not an http or https URL")
        }
        let curl: Curl
        switch Curl.shared {
        case .success(let loaded): curl = loaded
        case .failure(let error): throw error
        }
        var api = curl.api
        guard let handle = nudge_curl_easy_init(&api) else {
            throw FetchError(.unavailable, "libcurl cannot make a transfer handle")
        }
        defer { nudge_curl_cleanup(&api, handle) }

        let transfer = Transfer(maxSize: limits.maxSize, stallLimit: limits.timeout, progress: progress)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = url.withCString { urlText in
            errorBuffer.withUnsafeMutableBufferPointer { buffer in
                func long(_ option: CURLoption, _ value: Int) { _ = nudge_curl_setopt_long(&api, handle, option, value) }
                func pointer(_ option: CURLoption, _ value: UnsafeRawPointer?) { _ = nudge_curl_setopt_pointer(&api, handle, option, value) }
                pointer(CURLOPT_URL, urlText)
                pointer(CURLOPT_ERRORBUFFER, buffer.baseAddress)
                pointer(CURLOPT_PROTOCOLS_STR, "http,https")
                pointer(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
                pointer(CURLOPT_USERAGENT, "nudge")
                // Any encoding libcurl can undo; the size limit counts the undone bytes.
                pointer(CURLOPT_ACCEPT_ENCODING, "")
                long(CURLOPT_NOSIGNAL, 1)
                long(CURLOPT_FOLLOWLOCATION, 1)
                long(CURLOPT_MAXREDIRS, limits.maxRedirects)
                long(CURLOPT_FAILONERROR, 1)
                long(CURLOPT_CONNECTTIMEOUT_MS, Int(limits.timeout * 1000))
                // Less than a byte a second for `timeout` is a stall. libcurl averages the
                // speed over seconds, so bytes just before a stall hide it for a few more:
                // the progress callback also ends a transfer `timeout` after its last byte.
                long(CURLOPT_LOW_SPEED_LIMIT, 1)
                long(CURLOPT_LOW_SPEED_TIME, max(1, Int(limits.timeout.rounded(.up))))
                if let total = limits.total { long(CURLOPT_TIMEOUT_MS, max(1, Int(total * 1000))) }
                _ = nudge_curl_setopt_off_t(&api, handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxSize))
                _ = nudge_curl_setopt_write(&api, handle, Transfer.write)
                pointer(CURLOPT_WRITEDATA, context)
                _ = nudge_curl_setopt_header(&api, handle, Transfer.header)
                pointer(CURLOPT_HEADERDATA, context)
                _ = nudge_curl_setopt_xferinfo(&api, handle, Transfer.xferinfo)
                pointer(CURLOPT_XFERINFODATA, context)
                long(CURLOPT_NOPROGRESS, 0)
                return nudge_curl_perform(&api, handle)
            }
        }
        withExtendedLifetime(transfer) {}
        if code == CURLE_OK { return FetchedAnswer(body: transfer.body, contentType: transfer.contentType) }

        let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let said = detail.isEmpty ? curl.message(code) : detail
        switch code {
        case CURLE_HTTP_RETURNED_ERROR:
            var status = 0
            _ = nudge_curl_getinfo_long(&api, handle, CURLINFO_RESPONSE_CODE, &status)
            let reason = transfer.reason.map { " " + $0 } ?? ""
            throw FetchError(.http(status), "HTTP \(status)\(reason)")
        case CURLE_WRITE_ERROR where transfer.tooLarge, CURLE_FILESIZE_EXCEEDED:
            throw FetchError(.tooLarge, "the answer is larger than the \(sizeText(limits.maxSize)) limit")
        case CURLE_TOO_MANY_REDIRECTS:
            throw FetchError(.tooManyRedirects, "more than \(limits.maxRedirects) redirects (a redirect loop?)")
        case _ where code == CURLE_OPERATION_TIMEDOUT || (code == CURLE_ABORTED_BY_CALLBACK && transfer.stalled):
            let seconds = secondsText(limits.total ?? limits.timeout)
            throw FetchError(.timedOut, limits.total == nil
                             ? "timed out: no answer for \(seconds)" : "timed out: no answer within \(seconds)")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            throw FetchError(.cannotConnect, "cannot connect (offline?): \(said)")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            // A redirect's target (file://) is the URL refused, not the one asked for.
            var effective: UnsafeMutablePointer<CChar>?
            _ = nudge_curl_getinfo_string(&api, handle, CURLINFO_EFFECTIVE_URL, &effective)
            if let target = effective.map({ String(cString: $0) }), target != url {
                throw FetchError(.badURL, "redirected to '\(target)', which is not a URL that can be fetched: \(said)")
            }
            throw FetchError(.badURL, "'\(url)' is not a URL that can be fetched: \(said)")
        default:
            throw FetchError(.transfer, said)
        }
    }

    /// "10 MB", "512 KB", "300 bytes": sizes in units of 1024, as `max_size` is written.
    public static func sizeText(_ bytes: Int) -> String { BoundedRead.sizeText(bytes) }

    static func secondsText(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}

/// One fetch's state, shared with libcurl's callbacks through their context pointer.
private final class Transfer {
    var body = Data()
    let maxSize: Int
    var tooLarge = false
    /// The reason phrase of the last status line ("Not Found"), printable ASCII only.
    var reason: String?
    /// The Content-Type header of the last answer, printable ASCII only.
    var contentType: String?
    let progress: ((FetchProgress) -> Void)?
    var lastReported: FetchProgress?
    /// The longest the answer may stall, and when a byte of it last came (uptime, in ns).
    let stallLimit: TimeInterval
    var lastActivity = DispatchTime.now().uptimeNanoseconds
    /// Whether the server has begun to answer: before, libcurl's own timeouts apply.
    var answered = false
    var received: Int64 = 0
    var stalled = false

    init(maxSize: Int, stallLimit: TimeInterval, progress: ((FetchProgress) -> Void)?) {
        self.maxSize = maxSize
        self.stallLimit = stallLimit
        self.progress = progress
    }

    /// Notes that bytes came; the headers count too.
    func heardFrom() {
        answered = true
        lastActivity = DispatchTime.now().uptimeNanoseconds
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> Transfer {
        // Non-nil: the Transfer this file hands curl as the callbacks' user data.
        Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    }

    static let write: nudge_curl_write_fn = { data, size, count, context in
        let transfer = Transfer.from(context)
        let length = size * count
        guard transfer.body.count + length <= transfer.maxSize else {
            transfer.tooLarge = true
            return 0
        }
        if let data { transfer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length) }
        return length
    }

    static let header: nudge_curl_write_fn = { data, size, count, context in
        let transfer = Transfer.from(context)
        let length = size * count
        transfer.heardFrom()
        guard let data else { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            // "HTTP/1.1 404 Not Found": what follows the code, which the server chose.
            let words = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 2)
            let reason = words.count == 3 ? String(words[2].unicodeScalars.filter { (0x20...0x7E).contains($0.value) }.prefix(80).map(Character.init)) : ""
            transfer.reason = reason.isEmpty ? nil : reason
            // A redirect's headers are not the answer's.
            transfer.contentType = nil
        } else if line.prefix(13).lowercased() == "content-type:" {
            let value = line.dropFirst(13).unicodeScalars.filter { (0x20...0x7E).contains($0.value) }.prefix(200)
            transfer.contentType = String(String.UnicodeScalarView(value)).trimmingCharacters(in: .whitespaces)
        }
        return length
    }

    static let xferinfo: nudge_curl_xferinfo_fn = { context, total, now, _, _ in
        let transfer = Transfer.from(context)
        if Int64(now) != transfer.received {
            transfer.received = Int64(now)
            transfer.heardFrom()
        } else if transfer.answered,
                  Double(DispatchTime.now().uptimeNanoseconds - transfer.lastActivity) / 1e9 > transfer.stallLimit {
            transfer.stalled = true
            return 1
        }
        guard transfer.progress != nil else { return 0 }
        let progress = FetchProgress(received: Int64(now), total: total > 0 ? Int64(total) : nil)
        if progress != transfer.lastReported {
            transfer.lastReported = progress
            transfer.progress?(progress)
        }
        return 0
    }
}
