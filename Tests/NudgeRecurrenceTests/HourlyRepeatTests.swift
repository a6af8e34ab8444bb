import Foundation
import NudgeCore
import NudgeRecurrence
import Testing
@testable import NudgeTestSupport

private let berlin = TimeZone(identifier: "Europe/Berlin")!

private func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
    LocalDate(year: year, month: month, day: day)!.at(hour: hour, minute: minute, in: .nudge(zone: berlin))
}

/// "2027-03-28 03:00 +0200" on Berlin's clock, or nil.
private func berlinText(_ due: Due?) -> String? {
    guard case .at(let instant, let zone)? = due else { return nil }
    let clock = WallClock(zone: zone)
    let (hour, minute, _) = clock.time(of: instant)
    let offset = zone.secondsFromGMT(for: instant) / 3600
    return "\(clock.day(of: instant)) " + String(format: "%02d:%02d +%02d00", hour, minute, offset)
}

struct HourlyRepeatTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var rule: String
        var due: Date
        var done: Date
        var from: RepeatFrom = .due
        var seriesStart: SeriesStart? = nil
        var expected: String?

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "due 10:00 every 2h, done at 10:05: next at 12:00", rule: "every 2h",
             due: at(2027, 1, 5, 10), done: at(2027, 1, 5, 10, 5), expected: "2027-01-05 12:00 +0100"),
        Case(name: "done early, the next still follows the due", rule: "every 2h",
             due: at(2027, 1, 5, 10), done: at(2027, 1, 5, 9, 40), expected: "2027-01-05 12:00 +0100"),
        Case(name: "overdue moves to the next future occurrence", rule: "every 2h",
             due: at(2027, 1, 5, 10), done: at(2027, 1, 5, 15, 30), expected: "2027-01-05 16:00 +0100"),
        Case(name: "overdue by days, the minute stays", rule: "every 3h",
             due: at(2027, 1, 5, 10, 20), done: at(2027, 1, 8, 11, 30), expected: "2027-01-08 13:20 +0100"),
        Case(name: "from completion: counted from the hour it was done, at the due's minute", rule: "every 2h",
             due: at(2027, 1, 5, 10), done: at(2027, 1, 5, 11, 30), from: .completion, expected: "2027-01-05 13:00 +0100"),
        Case(name: "within a window, the last of the day goes to the next morning", rule: "every 2h between 09:00-18:00",
             due: at(2027, 1, 5, 17), done: at(2027, 1, 5, 17, 10), expected: "2027-01-06 09:00 +0100"),
        Case(name: "a window keeps the due's minute", rule: "hourly between 9-18",
             due: at(2027, 1, 5, 17, 30), done: at(2027, 1, 5, 17, 31), expected: "2027-01-06 09:30 +0100"),
        Case(name: "a window's hours are whole: 18:00 is outside 09:00-18:00", rule: "hourly between 9-18",
             due: at(2027, 1, 5, 17), done: at(2027, 1, 5, 17, 1), expected: "2027-01-06 09:00 +0100"),
        Case(name: "a series started a year and a half ago still finds the next hour", rule: "hourly",
             due: at(2027, 7, 5, 10, 15), done: at(2027, 7, 5, 10, 20),
             seriesStart: SeriesStart(day: LocalDate(year: 2026, month: 1, day: 1)!, time: TimeOfDay(hour: 9, minute: 15)),
             expected: "2027-07-05 11:15 +0200"),
        Case(name: "an old series keeps its phase: every 5h", rule: "every 5h",
             due: at(2027, 7, 5, 10), done: at(2027, 7, 5, 10, 5),
             seriesStart: SeriesStart(day: LocalDate(year: 2026, month: 1, day: 1)!, time: TimeOfDay(hour: 0, minute: 0)),
             // 2026-01-01 00:00 to 2027-07-05 00:00 is 550 days: 13,200 hours, 2,640 steps of 5h,
             // so the steps on 2027-07-05 fall at 00:00, 05:00, 10:00, 15:00.
             expected: "2027-07-05 15:00 +0200"),
        Case(name: "COUNT counts from the first occurrence", rule: "RRULE:FREQ=HOURLY;INTERVAL=2;COUNT=3",
             due: at(2027, 1, 5, 12), done: at(2027, 1, 5, 12, 5),
             seriesStart: SeriesStart(day: LocalDate(year: 2027, month: 1, day: 5)!, time: TimeOfDay(hour: 10, minute: 0)),
             expected: "2027-01-05 14:00 +0100"),
        Case(name: "COUNT used up", rule: "RRULE:FREQ=HOURLY;INTERVAL=2;COUNT=3",
             due: at(2027, 1, 5, 14), done: at(2027, 1, 5, 14, 5),
             seriesStart: SeriesStart(day: LocalDate(year: 2027, month: 1, day: 5)!, time: TimeOfDay(hour: 10, minute: 0)),
             expected: nil),
        Case(name: "the gap's 02:00 rings at 03:00", rule: "every 2h",
             due: at(2027, 3, 28, 0), done: at(2027, 3, 28, 0, 5), expected: "2027-03-28 03:00 +0200"),
        Case(name: "after the gap the even hours come back", rule: "every 2h",
             due: at(2027, 3, 28, 3), done: at(2027, 3, 28, 3, 5),
             seriesStart: SeriesStart(day: LocalDate(year: 2027, month: 3, day: 28)!, time: TimeOfDay(hour: 0, minute: 0)),
             expected: "2027-03-28 04:00 +0200"),
        Case(name: "the overlap's 02:00 rings once, at the first", rule: "hourly",
             due: at(2027, 10, 31, 1), done: at(2027, 10, 31, 1, 5), expected: "2027-10-31 02:00 +0200"),
        Case(name: "after the first 02:00 comes 03:00", rule: "hourly",
             due: Date(timeIntervalSince1970: 1_824_940_800), // 2027-10-31 00:00Z, the first 02:00
             done: Date(timeIntervalSince1970: 1_824_941_100),
             seriesStart: SeriesStart(day: LocalDate(year: 2027, month: 10, day: 31)!, time: TimeOfDay(hour: 1, minute: 0)),
             expected: "2027-10-31 03:00 +0100"),
    ]

    @Test(arguments: cases)
    func nextDue(_ test: Case) throws {
        let rule = try RepeatRule(parsing: test.rule)
        let next = rule.nextDue(after: .at(test.due, zone: berlin), completedAt: test.done, from: test.from, now: test.done,
                                localZone: berlin, seriesStart: test.seriesStart)
        #expect(berlinText(next) == test.expected)
    }

    /// Done on time every time through both of 2027's DST nights: every due is later than the
    /// one before (no duplicate), at most one hour off the interval in real time, and on the
    /// wall clock the hours are the series' own, but for the gap's missing 02:30, rung at 03:30
    /// (once, when the series also has 03:30).
    @Test(arguments: [1, 2, 3, 5])
    func hourlyAcrossBerlinsDSTNightsHasNoDuplicateOrDrift(interval: Int) throws {
        let rule = try RepeatRule(parsing: "every \(interval)h")
        let gapDay = LocalDate(year: 2027, month: 3, day: 28)!
        for day in [LocalDate(year: 2027, month: 3, day: 27)!, LocalDate(year: 2027, month: 10, day: 30)!] {
            let start = SeriesStart(day: day, time: TimeOfDay(hour: 0, minute: 30))
            var due = Due.at(day.at(hour: 0, minute: 30, in: .nudge(zone: berlin)), zone: berlin)
            var wallClock: [String] = []
            for _ in 0..<(72 / interval) {
                guard case .at(let instant, _) = due else { return }
                let next = try #require(rule.nextDue(after: due, completedAt: instant, from: .due, now: instant,
                                                     localZone: berlin, seriesStart: start))
                guard case .at(let nextInstant, _) = next else { return }
                let elapsed = Int(nextInstant.timeIntervalSince(instant)) / 60
                #expect(abs(elapsed - interval * 60) <= 60, "\(berlinText(due)!) -> \(berlinText(next)!)")
                #expect(nextInstant > instant)
                wallClock.append(String(berlinText(next)!.prefix(16)))
                due = next
            }
            var expected: [String] = []
            for step in 1...(72 / interval + 1) {
                let hours = step * interval
                let stepDay = day.adding(days: hours / 24)
                let hour = stepDay == gapDay && hours % 24 == 2 ? 3 : hours % 24
                let text = "\(stepDay) " + String(format: "%02d:30", hour)
                if expected.last != text { expected.append(text) }
            }
            #expect(wallClock == Array(expected.prefix(wallClock.count)), "\(day)")
        }
    }
}

struct HourlyRepeatPropertyTests {
    /// Against plain arithmetic on wall-clock hours: the next due of FREQ=HOURLY;INTERVAL=n is
    /// the first series start + k·n hours (floating), placed in the zone, after the due and
    /// now. Series started up to three years back, so the start is moved forward, not walked.
    @Test func nextHourlyDueIsTheFirstWallClockStepAfterNow() throws {
        let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Asia/Kolkata"]
            .map { TimeZone(identifier: $0)! }
        var rng = SplitMix64(seed: 7_200)
        let epoch = LocalDate(year: 1970, month: 1, day: 1)!
        var mismatches: [String] = []
        for _ in 0..<3_000 {
            let zone = zones[Int(rng.next() % UInt64(zones.count))]
            let calendar = Calendar.nudge(zone: zone)
            let interval = Int(rng.next() % 7) + 1
            let rule = try RepeatRule(parsing: "every \(interval)h")
            let startDay = LocalDate(year: 2024, month: 1, day: 1)!.adding(days: Int(rng.next() % 1_100))
            let start = SeriesStart(day: startDay, time: TimeOfDay(hour: Int(rng.next() % 24), minute: Int(rng.next() % 60)))
            let now = startDay.at(hour: 0, minute: 0, in: calendar).addingTimeInterval(Double(rng.next() % (1_000 * 86_400)))
            // The current due: a step of the series at most two days before now.
            let nowHours = epoch.days(until: WallClock(zone: zone).day(of: now)) * 24
            let startHours = epoch.days(until: startDay) * 24 + start.time!.hour
            func placed(_ step: Int) -> Date {
                let hours = startHours + step * interval
                return epoch.adding(days: hours / 24).at(hour: hours % 24, minute: start.time!.minute, in: calendar)
            }
            let dueStep = max(0, (nowHours - startHours) / interval - Int(rng.next() % UInt64(48 / interval + 1)))
            let due = placed(dueStep)
            var step = dueStep
            while placed(step) <= max(due, now) { step += 1 }
            let next = rule.nextDue(after: .at(due, zone: zone), completedAt: now, from: .due, now: now, localZone: zone,
                                    seriesStart: start)
            if next != .at(placed(step), zone: zone) {
                mismatches.append("\(zone.identifier) every \(interval)h from \(start), now \(now): \(String(describing: next)), expected \(placed(step))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(3))")
    }
}
