import Foundation
import Testing
@testable import NudgeTestSupport

/// A repeating todo typed at a wall-clock time that a DST gap skips on its first day: that day
/// it is due after the gap, and on the days after at the time typed (RFC 5545).
struct RepeatAcrossDSTTests {
    struct Gap: Sendable, CustomTestStringConvertible {
        var zone: String
        /// The day before the gap, the day of the gap, and the two days after.
        var days: [String]
        var typed: String
        /// Where the gap puts the typed time on its day.
        var moved: String

        var testDescription: String { zone }

        /// A nudge in this gap's zone at `now`.
        func nudge(at now: String) -> Nudge {
            var nudge = Nudge()
            nudge.zone = zone
            nudge.now = now
            return nudge
        }
    }

    static let gaps = [
        Gap(zone: "Europe/Berlin", days: ["2027-03-27", "2027-03-28", "2027-03-29", "2027-03-30"], typed: "02:30", moved: "03:30"),
        Gap(zone: "America/New_York", days: ["2027-03-13", "2027-03-14", "2027-03-15", "2027-03-16"], typed: "02:30", moved: "03:30"),
        Gap(zone: "Australia/Lord_Howe", days: ["2027-10-02", "2027-10-03", "2027-10-04", "2027-10-05"], typed: "02:15", moved: "02:45"),
    ]

    /// The local date and time of todo `id`'s due, e.g. "2027-03-28T03:30".
    func due(_ nudge: Nudge, _ id: String) throws -> String {
        let text = try #require(try nudge("show", id, "--json").object()["due"] as? String)
        return String(text.prefix(16))
    }

    @Test(arguments: gaps)
    func aDailyTodoAddedInTheGapIsBackAtTheTypedTimeTheNextDays(gap: Gap) throws {
        var nudge = gap.nudge(at: "\(gap.days[0]) 10:00:00")
        #expect(try nudge("add", "X", "--due", "\(gap.days[1]) \(gap.typed)", "--repeat", "daily").status == 0)
        #expect(try due(nudge, "1") == "\(gap.days[1])T\(gap.moved)")
        for day in 1...2 {
            nudge.now = "\(gap.days[day]) 12:00:00"
            #expect(try nudge("done", "1").status == 0)
            #expect(try due(nudge, "1") == "\(gap.days[day + 1])T\(gap.typed)")
        }
    }

    @Test(arguments: gaps)
    func editingTheDueIntoTheGapKeepsTheTypedTime(gap: Gap) throws {
        var nudge = gap.nudge(at: "\(gap.days[0]) 10:00:00")
        try nudge("add", "X", "--due", "\(gap.days[0]) 18:00", "--repeat", "daily")
        #expect(try nudge("edit", "1", "--due", "\(gap.days[1]) \(gap.typed)").status == 0)
        nudge.now = "\(gap.days[1]) 12:00:00"
        #expect(try nudge("done", "1").status == 0)
        #expect(try due(nudge, "1") == "\(gap.days[2])T\(gap.typed)")
    }

    @Test(arguments: gaps)
    func aNewRuleKeepsTheSeriesTime(gap: Gap) throws {
        var nudge = gap.nudge(at: "\(gap.days[0]) 10:00:00")
        try nudge("add", "X", "--due", "\(gap.days[1]) \(gap.typed)", "--repeat", "daily")
        #expect(try nudge("edit", "1", "--repeat", "every 2 days").status == 0)
        nudge.now = "\(gap.days[1]) 12:00:00"
        #expect(try nudge("done", "1").status == 0)
        #expect(try due(nudge, "1") == "\(gap.days[3])T\(gap.typed)")
    }

    @Test(arguments: gaps)
    func aOneOffTodoInTheGapMadeToRepeatKeepsTheTimeTyped(gap: Gap) throws {
        var nudge = gap.nudge(at: "\(gap.days[0]) 10:00:00")
        try nudge("add", "X", "--due", "\(gap.days[1]) \(gap.typed)")
        #expect(try nudge("edit", "1", "--repeat", "daily").status == 0)
        nudge.now = "\(gap.days[1]) 12:00:00"
        #expect(try nudge("done", "1").status == 0)
        #expect(try due(nudge, "1") == "\(gap.days[2])T\(gap.typed)")
    }

    @Test(arguments: gaps)
    func postponingTheMovedDueByADayGivesTheTypedTime(gap: Gap) throws {
        let nudge = gap.nudge(at: "\(gap.days[0]) 10:00:00")
        try nudge("add", "X", "--due", "\(gap.days[1]) \(gap.typed)", "--repeat", "weekly")
        #expect(try nudge("postpone", "1", "1d").status == 0)
        #expect(try due(nudge, "1") == "\(gap.days[2])T\(gap.typed)")
        // A todo that does not repeat keeps the time typed too.
        try nudge("add", "Y", "--due", "\(gap.days[1]) \(gap.typed)")
        #expect(try nudge("postpone", "2", "1d").status == 0)
        #expect(try due(nudge, "2") == "\(gap.days[2])T\(gap.typed)")
    }

    @Test(arguments: gaps)
    func aOneOffTodoPostponedIntoTheGapAndOutIsBackAtItsTime(gap: Gap) throws {
        let nudge = gap.nudge(at: "\(gap.days[0]) 00:10:00")
        try nudge("add", "X", "--due", "\(gap.days[0]) \(gap.typed)")
        #expect(try nudge("postpone", "1", "1d").status == 0)
        #expect(try due(nudge, "1") == "\(gap.days[1])T\(gap.moved)")
        #expect(try nudge("postpone", "1", "1d").status == 0)
        #expect(try due(nudge, "1") == "\(gap.days[2])T\(gap.typed)")
    }

    @Test(arguments: gaps)
    func hoursAddedToADayCountFromTheTimeTypedAndAreKeptFromThen(gap: Gap) throws {
        let nudge = gap.nudge(at: "\(gap.days[0]) 00:10:00")
        try nudge("add", "X", "--due", "\(gap.days[1]) \(gap.typed)")
        try nudge("add", "Y", "--due", "\(gap.days[1]) \(gap.typed)")
        #expect(try nudge("postpone", "1", "1d1h").status == 0)
        let later = try time(gap.typed, plusMinutes: 60)
        #expect(try due(nudge, "1") == "\(gap.days[2])T\(later)")
        #expect(try nudge("postpone", "1", "1d").status == 0)
        #expect(try due(nudge, "1") == "\(gap.days[3])T\(later)")
        // A due typed again is what it says from then on.
        #expect(try nudge("edit", "2", "--due", "\(gap.days[2]) 05:00").status == 0)
        #expect(try nudge("postpone", "2", "1d").status == 0)
        #expect(try due(nudge, "2") == "\(gap.days[3])T05:00")
    }

    /// "03:30" plus 60 minutes is "04:30".
    func time(_ text: String, plusMinutes: Int) throws -> String {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        try #require(parts.count == 2)
        let minutes = parts[0] * 60 + parts[1] + plusMinutes
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    @Test func inOneDayFromTheTimeBeforeTheGapRepeatsAtThatTime() throws {
        var nudge = Nudge()
        nudge.now = "2027-03-27 02:30:00"
        try nudge("add", "X", "--due", "in 1 day", "--repeat", "daily")
        #expect(try due(nudge, "1") == "2027-03-28T03:30")
        nudge.now = "2027-03-28 12:00:00"
        try nudge("done", "1")
        #expect(try due(nudge, "1") == "2027-03-29T02:30")
    }
}
