import Foundation
import NudgeCore
import NudgeRecurrence
import Testing
@testable import NudgeTestSupport

/// `Todo.skipping`: occurrences taken out of a series, the dues left compared with dateutil's
/// rruleset given the same dates as EXDATE, in Berlin across the night clocks go forward
/// (2027-03-28, 02:00-03:00 skipped).
struct SkipTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let calendar = Calendar.nudge(zone: berlin)

    /// A todo due at the series start `start` ("2027-03-26T02:30", or a day), repeating by `rule`.
    static func todo(_ start: String, _ rule: String, from: RepeatFrom = .due) throws -> Todo {
        let series = try #require(SeriesStart(parsing: start))
        let due: Due = series.time.map { .at(series.day.at(hour: $0.hour, minute: $0.minute, in: calendar), zone: berlin) }
            ?? .allDay(series.day)
        let created = Date(timeIntervalSince1970: 0)
        return Todo(id: 1, title: "Water the plants", due: due, repetition: Repetition(rrule: rule, from: from, start: series),
                    createdAt: created, updatedAt: created)
    }

    static func at(_ text: String) throws -> Date {
        let wall = try #require(SeriesStart(parsing: text))
        let time = try #require(wall.time)
        return wall.day.at(hour: time.hour, minute: time.minute, in: calendar)
    }

    static func day(_ text: String) throws -> Due { .allDay(try #require(LocalDate(iso: text))) }

    /// The todo's due and the dues after it, as the oracle prints them.
    static func dues(_ todo: Todo, count: Int, now: Date) throws -> [String] {
        try ([todo.due].compactMap { $0 } + todo.nextDues(count - 1, now: now, localZone: berlin)).map { due in
            switch due {
            case .at(let instant, _): instant.ISO8601Format()
            case .allDay(let day): day.description
            }
        }
    }

    /// dateutil's occurrences of the series without `skipped`, after `after` when given.
    static func oracle(_ start: String, _ rule: String, skipped: [String], count: Int, after: String? = nil) throws -> [String] {
        try RepeatRuleOracleTests().oracle(RepeatRuleOracleTests.Case(name: "", zone: "Europe/Berlin", start: start, rule: rule,
                                                                      count: count, exdates: skipped, after: after))
    }

    @Test func skippingOneByOneAcrossTheGapMatchesTheOracle() throws {
        let now = try Self.at("2027-03-25T12:00")
        var todo = try Self.todo("2027-03-26T02:30", "FREQ=DAILY")
        // The gap's day first (there the due is 03:30), then the due itself, then two in a row.
        todo = try todo.skipping(1, on: Self.day("2027-03-28"), now: now, localZone: Self.berlin).todo
        #expect(todo.due == .at(try Self.at("2027-03-26T02:30"), zone: Self.berlin))
        todo = try todo.skipping(1, now: now, localZone: Self.berlin).todo
        let two = try todo.skipping(2, now: now, localZone: Self.berlin)
        #expect(two.skipped == [.at(try Self.at("2027-03-27T02:30"), zone: Self.berlin), .at(try Self.at("2027-03-29T02:30"), zone: Self.berlin)])
        todo = two.todo
        // Kept as the rule's wall-clock times, as another calendar matches EXDATE: 02:30, not 03:30.
        #expect(todo.repetition?.exceptions.map(\.description) == ["2027-03-28T02:30", "2027-03-26T02:30", "2027-03-27T02:30", "2027-03-29T02:30"])
        let skipped = ["2027-03-26T02:30", "2027-03-27T02:30", "2027-03-28T02:30", "2027-03-29T02:30"]
        let expected = try Self.oracle("2027-03-26T02:30", "FREQ=DAILY", skipped: skipped, count: 6)
        #expect(expected.first == "2027-03-30T00:30:00Z")
        #expect(try Self.dues(todo, count: 6, now: now) == expected)
    }

    @Test func skippingTheDueInTheGapMovesToTheNextAtTheTypedTime() throws {
        let now = try Self.at("2027-03-27T12:00")
        let todo = try Self.todo("2027-03-26T02:30", "FREQ=DAILY")
        // Overdue since the 26th: the due is skipped and the todo moves past now, as done would.
        let skip = try todo.skipping(2, now: now, localZone: Self.berlin)
        #expect(skip.skipped.count == 2)
        #expect(skip.todo.repetition?.exceptions.map(\.description) == ["2027-03-26T02:30", "2027-03-28T02:30"])
        let expected = try Self.oracle("2027-03-26T02:30", "FREQ=DAILY", skipped: ["2027-03-26T02:30", "2027-03-28T02:30"],
                                       count: 4, after: "2027-03-27T12:00")
        #expect(expected.first == "2027-03-29T00:30:00Z")
        #expect(try Self.dues(skip.todo, count: 4, now: now) == expected)
    }

    @Test func aWeeklyCountedSeriesSkipsTheGapSundayAndStillEndsOnItsCount() throws {
        let now = try Self.at("2027-03-20T12:00")
        let todo = try Self.todo("2027-03-21T02:15", "FREQ=WEEKLY;COUNT=4")
        let skip = try todo.skipping(1, on: .at(try Self.at("2027-03-28T03:15"), zone: Self.berlin), now: now, localZone: Self.berlin)
        #expect(skip.todo.repetition?.exceptions.map(\.description) == ["2027-03-28T02:15"])
        let expected = try Self.oracle("2027-03-21T02:15", "FREQ=WEEKLY;COUNT=4", skipped: ["2027-03-28T02:15"], count: 10)
        #expect(expected.count == 3)
        #expect(try Self.dues(skip.todo, count: 10, now: now) == expected)
        // Three dues are left from the due on: skipping four, or all three, is refused.
        #expect(throws: SkipError.self) { try skip.todo.skipping(4, now: now, localZone: Self.berlin) }
        #expect(throws: SkipError.self) { try skip.todo.skipping(3, now: now, localZone: Self.berlin) }
        // The last two may go: the series then ends after its due.
        let ended = try skip.todo.skipping(2, on: Self.day("2027-04-04"), now: now, localZone: Self.berlin)
        #expect(try Self.dues(ended.todo, count: 10, now: now) == ["2027-03-21T01:15:00Z"])
    }

    @Test func anAllDaySeriesSkipsDays() throws {
        let now = try Self.at("2027-03-20T12:00")
        let todo = try Self.todo("2027-03-21", "FREQ=WEEKLY;COUNT=4")
        let skip = try todo.skipping(2, now: now, localZone: Self.berlin)
        #expect(skip.todo.due == (try Self.day("2027-04-04")))
        #expect(skip.todo.repetition?.exceptions.map(\.description) == ["2027-03-21", "2027-03-28"])
        let expected = try Self.oracle("2027-03-21", "FREQ=WEEKLY;COUNT=4", skipped: ["2027-03-21", "2027-03-28"], count: 10)
        #expect(try Self.dues(skip.todo, count: 10, now: now) == expected)
        #expect(skip.todo.skippedDues(localZone: Self.berlin) == [try Self.day("2027-03-21"), try Self.day("2027-03-28")])
        let later = try todo.skipping(1, on: Self.day("2027-04-04"), now: now, localZone: Self.berlin).todo
        #expect(later.skippedDues(localZone: Self.berlin) == [try Self.day("2027-04-04")])
    }

    @Test func whatCannotBeSkippedIsRefusedWithTheReason() throws {
        let now = try Self.at("2027-03-25T12:00")
        let daily = try Self.todo("2027-03-26T09:00", "FREQ=DAILY")
        func reason(_ todo: Todo, _ count: Int = 1, on target: Due? = nil) -> SkipError? {
            do {
                _ = try todo.skipping(count, on: target, now: now, localZone: Self.berlin)
                return nil
            } catch {
                return error
            }
        }
        var oneOff = daily
        oneOff.repetition = nil
        #expect(reason(oneOff) == .notRepeating)
        var done = daily
        done.completedAt = now
        #expect(reason(done) == .completed)
        #expect(reason(try Self.todo("2027-03-26T09:00", "FREQ=DAILY", from: .completion)) == .repeatsFromCompletion)
        #expect(reason(daily, on: .at(try Self.at("2027-03-27T10:00"), zone: Self.berlin))
                == .notAnOccurrence(next: [daily.due!] + (try daily.nextDues(3, now: now, localZone: Self.berlin)), alreadySkipped: false))
        #expect(reason(daily, on: try Self.day("2027-03-20")) == .beforeDue(daily.due!))
        let skipped = try daily.skipping(1, on: Self.day("2027-03-27"), now: now, localZone: Self.berlin).todo
        guard case .notAnOccurrence(_, true)? = reason(skipped, on: try Self.day("2027-03-27")) else {
            Issue.record("skipping a skipped day again is not named as such")
            return
        }
        let hourly = try Self.todo("2027-03-26T09:00", "FREQ=HOURLY;INTERVAL=4")
        guard case .severalOnDay(let dues)? = reason(hourly, on: try Self.day("2027-03-28")) else {
            Issue.record("a day with several dues is not refused")
            return
        }
        // Every 4 wall-clock hours from 09:00: 01:00, 05:00, ..., 21:00.
        #expect(dues.count == 6)
        let overdue = try Self.todo("2027-03-20T09:00", "FREQ=DAILY")
        #expect(reason(overdue, on: try Self.day("2027-03-22")) == .passed)
    }
}
