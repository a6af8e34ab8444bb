import Foundation
import Testing

/// A time zone and a moment to run a test at in it: offset changes, half-hour zones, a
/// day's edges. Named in the test's report as "Europe/Berlin at 2026-03-29T09:00:00Z".
struct ZoneMoment: CustomTestStringConvertible, Sendable {
    let zone: String
    /// ISO 8601 in UTC.
    let now: String
    var testDescription: String { "\(zone) at \(now)" }

    var timeZone: TimeZone {
        get throws { try #require(TimeZone(identifier: zone)) }
    }

    var instant: Date {
        get throws { try #require(ISO8601DateFormatter().date(from: now)) }
    }
}
