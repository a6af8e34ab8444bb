import Foundation
import NudgeCore
import NudgeNetwork
import NudgePlatform

/// The quote of the day from `[list] quote`: a URL fetched at most once a day (within a
/// second; a failure is remembered for the day too, so offline costs that second once), or a
/// fortune file read each time. Kept in `$XDG_CACHE_HOME/nudge/quote`.
public struct QuoteOfTheDay: Sendable {
    public var source: QuoteSource
    /// The folder of the cache file.
    public var cacheFolder: String
    /// For `~/` in a file's path.
    public var home: String
    /// The longest a fetch may take, all in all.
    public var timeout: TimeInterval = 1
    /// The most bytes of an answer read.
    public var maxSize = 64 << 10

    public init(source: QuoteSource, cacheFolder: String, home: String) {
        self.source = source
        self.cacheFolder = cacheFolder
        self.home = home
    }

    /// `$XDG_CACHE_HOME/nudge/`, else `~/.cache/nudge/` (a relative XDG_CACHE_HOME is ignored).
    public init(source: QuoteSource, environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (home + "/.cache")
        self.init(source: source, cacheFolder: cacheHome + "/nudge", home: home)
    }

    var cachePath: String { cacheFolder + "/quote" }

    /// The quote of `day`, or nil when there is none: off, or the source fails.
    public func quote(on day: LocalDate) -> Quote? {
        switch source {
        case .off:
            return nil
        case .file(let path):
            let full = path.hasPrefix("~/") ? home + path.dropFirst(1) : path
            guard let data = Self.readSmall(full, limit: 4 << 20) else { return nil }
            return QuoteReader.pick(QuoteReader.fortunes(String(decoding: data, as: UTF8.self)), on: day)
        case .url(let url):
            if let cached = cached(day: day, source: url) { return cached.quote }
            let quote = (try? HTTP.get(url, limits: FetchLimits(timeout: timeout, total: timeout, maxSize: maxSize)))
                .flatMap(QuoteReader.json)
            store(Cached(day: day, source: url, quote: quote))
            return quote
        }
    }

    struct Cached: Equatable {
        var day: LocalDate
        var source: String
        /// Nil: the fetch failed that day.
        var quote: Quote?
    }

    /// What the cache holds for this day and source, if anything.
    func cached(day: LocalDate, source: String) -> Cached? {
        guard let data = Self.readSmall(cachePath, limit: 64 << 10),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              object["day"] as? String == day.description, object["source"] as? String == source else { return nil }
        let quote = (object["text"] as? String).flatMap { Quote(text: $0, author: object["author"] as? String) }
        return Cached(day: day, source: source, quote: quote)
    }

    /// Writes the cache whole or not at all; a cache that cannot be
    /// written only costs another fetch.
    func store(_ cached: Cached) {
        var object: [String: Any] = ["day": cached.day.description, "source": cached.source]
        if let quote = cached.quote {
            object["text"] = quote.text
            object["author"] = quote.author
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        try? PrivateFolder.create(cacheFolder)
        try? AtomicFile.replace(cachePath, with: String(decoding: data, as: UTF8.self), mode: 0o644)
    }

    /// A regular file's bytes, when it is at most `limit` long.
    static func readSmall(_ path: String, limit: Int) -> Data? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= limit else { return nil }
        return FileManager.default.contents(atPath: path)
    }
}
