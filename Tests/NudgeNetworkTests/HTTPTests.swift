import Foundation
import Testing
@testable import NudgeNetwork
@testable import NudgeTestSupport

/// HTTP.get against the loopback server of test_http_server.py.
struct HTTPTests {
    let server: TestHTTPServer
    let limits = FetchLimits(timeout: 5, maxSize: 1 << 20)

    init() throws {
        server = try TestHTTPServer()
    }

    @Test func aBodyWithAContentLengthIsReadWhole() throws {
        let body = try HTTP.get(server.url("/todos"), limits: limits)
        let items = try JSONSerialization.jsonObject(with: body) as? [[String: Any]]
        #expect(items?.count == 3)
    }

    @Test func progressCountsBytesOfTheContentLength() throws {
        var reports: [FetchProgress] = []
        let body = try HTTP.get(server.url("/slow"), limits: limits) { reports.append($0) }
        #expect(reports.count >= 3)
        #expect(reports.allSatisfy { $0.total == Int64(body.count) || $0.total == nil })
        #expect(reports.last?.received == Int64(body.count))
        #expect(reports.map(\.received) == reports.map(\.received).sorted())
    }

    @Test func aChunkedBodyHasNoTotal() throws {
        var reports: [FetchProgress] = []
        let body = try HTTP.get(server.url("/chunked"), limits: limits) { reports.append($0) }
        #expect(try JSONSerialization.jsonObject(with: body) is [Any])
        #expect(reports.allSatisfy { $0.total == nil })
        #expect(reports.last?.received == Int64(body.count))
    }

    @Test func aRedirectIsFollowed() throws {
        #expect(try HTTP.get(server.url("/redirect"), limits: limits) == (try HTTP.get(server.url("/todos"), limits: limits)))
    }

    @Test func theAnswerCarriesItsContentTypeThatOfTheLastAfterARedirect() throws {
        #expect(try HTTP.fetch(server.url("/todos"), limits: limits).contentType == "application/json")
        #expect(try HTTP.fetch(server.url("/page"), limits: limits).contentType == "text/html; charset=utf-8")
        let redirected = try HTTP.fetch(server.url("/redirect-to-page"), limits: limits)
        #expect(redirected.contentType == "text/html; charset=utf-8")
        #expect(String(decoding: redirected.body, as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
    }

    @Test func httpErrorsNameTheStatus() throws {
        #expect(throws: FetchError(.http(404), "HTTP 404 Not Found")) { try HTTP.get(server.url("/404"), limits: limits) }
        #expect(throws: FetchError(.http(500), "HTTP 500 Internal Server Error")) { try HTTP.get(server.url("/500"), limits: limits) }
    }

    @Test func anEndlessBodyStopsAtTheSizeLimit() throws {
        let small = FetchLimits(timeout: 5, maxSize: 256 << 10)
        #expect(throws: FetchError(.tooLarge, "the answer is larger than the 256 KB limit")) {
            try HTTP.get(server.url("/endless"), limits: small)
        }
    }

    @Test func aContentLengthOverTheLimitIsRefusedAtOnce() throws {
        let tiny = FetchLimits(timeout: 5, maxSize: 10)
        #expect(throws: FetchError(.tooLarge, "the answer is larger than the 10 bytes limit")) {
            try HTTP.get(server.url("/todos"), limits: tiny)
        }
    }

    @Test func aRedirectLoopEnds() throws {
        #expect(throws: FetchError(.tooManyRedirects, "more than 10 redirects (a redirect loop?)")) {
            try HTTP.get(server.url("/loop"), limits: limits)
        }
    }

    @Test func aStalledAnswerTimesOut() throws {
        let started = Date()
        #expect(throws: FetchError(.timedOut, "timed out: no answer for 1 s")) {
            try HTTP.get(server.url("/stall"), limits: FetchLimits(timeout: 1, maxSize: 1 << 20))
        }
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test func anAnswerThatStallsAfterItsFirstBytesTimesOutAsSoon() throws {
        let started = Date()
        #expect(throws: FetchError(.timedOut, "timed out: no answer for 1 s")) {
            try HTTP.get(server.url("/stall-after-bytes"), limits: FetchLimits(timeout: 1, maxSize: 1 << 20))
        }
        // libcurl's low-speed check alone took 4 s here: its average still held the bytes.
        #expect(Date().timeIntervalSince(started) < 2.5)
    }

    @Test func theTotalBoundsASlowButMovingAnswer() throws {
        let started = Date()
        #expect(throws: FetchError(.timedOut, "timed out: no answer within 0.5 s")) {
            try HTTP.get(server.url("/slow"), limits: FetchLimits(timeout: 5, total: 0.5, maxSize: 1 << 20))
        }
        #expect(Date().timeIntervalSince(started) < 1.5)
    }

    @Test func aRefusedConnectionSaysSo() throws {
        // Port 1 on loopback: nothing listens there.
        do {
            _ = try HTTP.get("http://127.0.0.1:1/todos", limits: limits)
            Issue.record("fetched from a closed port")
        } catch {
            #expect(error.kind == .cannotConnect)
            #expect(error.message.hasPrefix("cannot connect (offline?): "))
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func onlyHTTPAndHTTPSAreFetched() throws {
        #expect(throws: FetchError(.badURL, "'file:///etc/passwd' is not an http or https URL")) {
            try HTTP.get("file:///etc/passwd", limits: limits)
        }
    }

    /// The URL refused is the redirect's target, which the error names.
    @Test func aRedirectToAFileIsRefusedNamingTheTarget() throws {
        #expect(throws: FetchError(.badURL, "redirected to 'file:///etc/passwd', which is not a URL that can be fetched: "
                                   + "Protocol \"file\" not supported or disabled in libcurl")) {
            try HTTP.get(server.url("/redirect-to-file"), limits: limits)
        }
    }

    @Test func sizesReadAsMaxSizeIsWritten() {
        #expect(HTTP.sizeText(10 << 20) == "10 MB")
        #expect(HTTP.sizeText(512 << 10) == "512 KB")
        #expect(HTTP.sizeText(1536) == "1.5 KB")
        #expect(HTTP.sizeText(300) == "300 bytes")
    }
}
