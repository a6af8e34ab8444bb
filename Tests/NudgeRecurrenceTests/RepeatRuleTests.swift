import Foundation
import NudgeCore
import Testing
@testable import NudgeTestSupport
@testable import NudgeRecurrence

/// Helpers for building and reading instants in named zones.
private func zone(_ identifier: String) -> TimeZone {
    TimeZone(identifier: identifier)!
}

private func day(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
    LocalDate(year: year, month: month, day: day)!
}

private func instant(_ zoneID: String, _ year: Int, _ month: Int, _ dayOfMonth: Int, _ hour: Int, _ minute: Int = 0) -> Date {
    day(year, month, dayOfMonth).at(hour: hour, minute: minute, in: Calendar.nudge(zone: zone(zoneID)))
}

private func timed(_ zoneID: String, _ year: Int, _ month: Int, _ dayOfMonth: Int, _ hour: Int, _ minute: Int = 0) -> Due {
    .at(instant(zoneID, year, month, dayOfMonth, hour, minute), zone: zone(zoneID))
}

/// "2027-03-14 03:30" on the due's own zone clock, or "2027-03-14" for an all-day due.
private func local(_ due: Due?) -> String? {
    switch due {
    case nil: return nil
    case .allDay(let day): return day.description
    case .at(let date, let zone):
        let clock = WallClock(zone: zone)
        let (h, m, _) = clock.time(of: date)
        return "\(clock.day(of: date)) " + String(format: "%02d:%02d", h, m)
    }
}

private func utc(_ text: String) -> Date {
    try! Date(text, strategy: .iso8601)
}

struct RepeatRuleParsingTests {
    static let accepted: [(String, String)] = [
        ("daily", "FREQ=DAILY"),
        (" Daily ", "FREQ=DAILY"),
        ("DAILY", "FREQ=DAILY"),
        ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("weekly", "FREQ=WEEKLY"),
        ("monthly", "FREQ=MONTHLY"),
        ("Yearly", "FREQ=YEARLY"),
        ("every day", "FREQ=DAILY"),
        ("every week", "FREQ=WEEKLY"),
        ("every month", "FREQ=MONTHLY"),
        ("every year", "FREQ=YEARLY"),
        ("every 1 day", "FREQ=DAILY"),
        ("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2"),
        ("Every  3  Days", "FREQ=DAILY;INTERVAL=3"),
        ("every 6 months", "FREQ=MONTHLY;INTERVAL=6"),
        ("every 2 years", "FREQ=YEARLY;INTERVAL=2"),
        ("RRULE:FREQ=WEEKLY;INTERVAL=2", "FREQ=WEEKLY;INTERVAL=2"),
        ("rrule:freq=monthly;bymonthday=-1", "FREQ=MONTHLY;BYMONTHDAY=-1"),
        ("RRULE:FREQ=DAILY;INTERVAL=1", "FREQ=DAILY"),
        ("RRULE:FREQ=DAILY;COUNT=5", "FREQ=DAILY;COUNT=5"),
        ("RRULE:FREQ=DAILY;UNTIL=20300101", "FREQ=DAILY;UNTIL=20300101"),
        ("RRULE:FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=-1FR"),
    ]

    @Test(arguments: accepted)
    func readsAcceptedForms(text: String, rrule: String) throws {
        #expect(try RepeatRule(parsing: text).rrule == rrule)
    }

    static let unreadable = [
        "", "  ", "every", "every days", "every 2 day s", "every 0 days", "every -1 days", "every two weeks",
        "every 2 fortnights", "every 2", "every 2 weeks please", "every 99999 days", "each week",
        "FREQ=DAILY", "RRULE:", "RRULE:garbage", "RRULE:FREQ=DAILY;FOO=BAR", "RRULE:FREQ=DAILY;INTERVAL=0",
        "RRULE:FREQ=DAILY;COUNT=2;UNTIL=20300101", "RRULE:FREQ=DAILY;BYDAY=XX", "RRULE:INTERVAL=2",
    ]

    @Test(arguments: unreadable)
    func refusesUnreadableText(text: String) {
        let trimmed = text.trimmingWhitespace()
        #expect(throws: InputError("can't read '\(trimmed)' as a repeat rule; use daily, weekdays, weekly, monthly, yearly, "
                                   + "every N days|weeks|months, every 2h [between 09:00-18:00], every mon,thu, every 2 weeks on fri, "
                                   + "every 2nd tue, last fri of month, every month on the 15th, optionally ending in 'at 9' (add, edit), "
                                   + "or an RFC 5545 RRULE:... string")) {
            try RepeatRule(parsing: text)
        }
    }

    static let descriptions: [(String, String)] = [
        ("daily", "daily"),
        ("every 1 days", "daily"),
        ("weekdays", "weekdays"),
        ("RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "weekdays"),
        ("weekly", "weekly"),
        ("monthly", "monthly"),
        ("yearly", "yearly"),
        ("every 2 weeks", "every 2 weeks"),
        ("every 3 days", "every 3 days"),
        ("every 6 months", "every 6 months"),
        ("every 2 years", "every 2 years"),
        ("rrule:freq=monthly;bymonthday=31", "every month on the 31st"),
        ("RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=2", "RRULE:FREQ=MONTHLY;COUNT=2;BYMONTHDAY=31"),
        ("RRULE:FREQ=DAILY;COUNT=3", "RRULE:FREQ=DAILY;COUNT=3"),
    ]

    @Test(arguments: descriptions)
    func describesAndReadsBack(text: String, description: String) throws {
        let rule = try RepeatRule(parsing: text)
        #expect(rule.description == description)
        #expect(try RepeatRule(parsing: rule.description) == rule)
    }
}

struct RepeatRuleNextDueTests {
    static let dstZones = ["America/New_York", "Europe/Berlin", "Europe/Dublin", "Australia/Lord_Howe", "Pacific/Auckland"]

    /// Completes a daily 09:00 todo on time every day of 2027, across both DST changes.
    @Test(arguments: dstZones)
    func dailyStaysAtNineAcrossDSTChanges(zoneID: String) throws {
        let rule = try RepeatRule(parsing: "daily")
        var due = timed(zoneID, 2027, 1, 1, 9)
        var offsets = Set<Int>()
        for step in 1...365 {
            guard case .at(let date, let dueZone) = due else { Issue.record("not timed"); return }
            let next = rule.nextDue(after: due, completedAt: date, from: .due, now: date, localZone: dueZone)
            #expect(local(next) == "\(day(2027, 1, 1).adding(days: step)) 09:00", "\(zoneID) step \(step)")
            guard case .at(let nextDate, let nextZone)? = next else { return }
            #expect(nextZone == dueZone)
            offsets.insert(nextZone.secondsFromGMT(for: nextDate))
            due = next!
        }
        #expect(offsets.count == 2, "\(zoneID) should change its offset twice in 2027")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var rule: String
        var due: Due
        var now: Date
        var completedAt: Date? = nil
        var from: RepeatFrom = .due
        var expected: String?
        var expectedUTC: Date? = nil

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "02:30 on the spring-forward day fires at 03:30", rule: "daily",
             due: timed("America/New_York", 2027, 3, 13, 2, 30), now: instant("America/New_York", 2027, 3, 13, 3),
             expected: "2027-03-14 03:30", expectedUTC: utc("2027-03-14T07:30:00Z")),
        Case(name: "Berlin 02:30 on the spring-forward day fires at 03:30", rule: "daily",
             due: timed("Europe/Berlin", 2027, 3, 27, 2, 30), now: instant("Europe/Berlin", 2027, 3, 27, 3),
             expected: "2027-03-28 03:30", expectedUTC: utc("2027-03-28T01:30:00Z")),
        Case(name: "01:30 on the fall-back day fires at the first 01:30", rule: "daily",
             due: timed("America/New_York", 2027, 11, 6, 1, 30), now: instant("America/New_York", 2027, 11, 6, 2),
             expected: "2027-11-07 01:30", expectedUTC: utc("2027-11-07T05:30:00Z")),
        Case(name: "after the first 01:30 it does not fire again at the second", rule: "daily",
             due: .at(utc("2027-11-07T05:30:00Z"), zone: zone("America/New_York")), now: utc("2027-11-07T05:31:00Z"),
             expected: "2027-11-08 01:30", expectedUTC: utc("2027-11-08T06:30:00Z")),
        Case(name: "Lord Howe 02:15 in its 30-minute gap fires at 02:45", rule: "daily",
             due: timed("Australia/Lord_Howe", 2027, 10, 2, 2, 15), now: instant("Australia/Lord_Howe", 2027, 10, 2, 3),
             expected: "2027-10-03 02:45", expectedUTC: utc("2027-10-02T15:45:00Z")),
        Case(name: "monthly on the 31st skips months without one", rule: "monthly",
             due: timed("Europe/Berlin", 2027, 1, 31, 9), now: instant("Europe/Berlin", 2027, 1, 31, 10),
             expected: "2027-03-31 09:00"),
        Case(name: "all-day monthly on the 31st skips months without one", rule: "monthly",
             due: .allDay(day(2027, 1, 31)), now: instant("Europe/Berlin", 2027, 1, 31, 10),
             expected: "2027-03-31"),
        Case(name: "yearly on Feb 29 waits for the next leap year", rule: "yearly",
             due: .allDay(day(2024, 2, 29)), now: instant("Europe/Berlin", 2024, 2, 29, 10),
             expected: "2028-02-29"),
        Case(name: "timed yearly on Feb 29 waits for the next leap year", rule: "yearly",
             due: timed("Europe/Berlin", 2024, 2, 29, 18), now: instant("Europe/Berlin", 2024, 3, 1, 10),
             expected: "2028-02-29 18:00"),
        Case(name: "weekdays go from Friday to Monday", rule: "weekdays",
             due: timed("Europe/Berlin", 2027, 1, 8, 9), now: instant("Europe/Berlin", 2027, 1, 8, 9, 30),
             expected: "2027-01-11 09:00"),
        Case(name: "all-day weekdays go from Friday to Monday", rule: "weekdays",
             due: .allDay(day(2027, 1, 8)), now: instant("Europe/Berlin", 2027, 1, 8, 20),
             expected: "2027-01-11"),
        Case(name: "weekdays completed on Saturday go to Monday", rule: "weekdays",
             due: .allDay(day(2027, 1, 8)), now: instant("Europe/Berlin", 2027, 1, 9, 20),
             expected: "2027-01-11"),
        Case(name: "every 2 weeks", rule: "every 2 weeks",
             due: timed("America/New_York", 2027, 1, 8, 17, 45), now: instant("America/New_York", 2027, 1, 8, 18),
             expected: "2027-01-22 17:45"),
        Case(name: "every 2 weeks keeps its rhythm when completed late", rule: "every 2 weeks",
             due: timed("America/New_York", 2027, 1, 8, 17, 45), now: instant("America/New_York", 2027, 1, 25, 18),
             expected: "2027-02-05 17:45"),
        Case(name: "every 3 days from completion", rule: "every 3 days",
             due: timed("Europe/Berlin", 2027, 11, 28, 9), now: instant("Europe/Berlin", 2027, 12, 1, 15),
             completedAt: instant("Europe/Berlin", 2027, 12, 1, 15), from: .completion,
             expected: "2027-12-04 09:00"),
        Case(name: "completed early, from completion", rule: "weekly",
             due: timed("Europe/Berlin", 2027, 12, 10, 9), now: instant("Europe/Berlin", 2027, 12, 1, 15),
             completedAt: instant("Europe/Berlin", 2027, 12, 1, 15), from: .completion,
             expected: "2027-12-08 09:00"),
        Case(name: "from completion, an occurrence in the due's minute (BYSECOND) is not after it",
             rule: "RRULE:FREQ=YEARLY;BYSECOND=22",
             due: timed("Europe/Berlin", 2026, 12, 1, 13), now: instant("Europe/Berlin", 2026, 12, 1, 13),
             completedAt: instant("Europe/Berlin", 2026, 12, 1, 13), from: .completion,
             expected: "2027-12-01 13:00"),
        Case(name: "all-day every 3 days from completion", rule: "every 3 days",
             due: .allDay(day(2027, 11, 28)), now: instant("Europe/Berlin", 2027, 12, 1, 15),
             completedAt: instant("Europe/Berlin", 2027, 12, 1, 15), from: .completion,
             expected: "2027-12-04"),
        Case(name: "overdue daily jumps to the next future occurrence", rule: "daily",
             due: timed("Europe/Berlin", 2027, 1, 1, 9), now: instant("Europe/Berlin", 2027, 1, 4, 12),
             expected: "2027-01-05 09:00"),
        Case(name: "overdue daily can be due later today", rule: "daily",
             due: timed("Europe/Berlin", 2027, 1, 1, 9), now: instant("Europe/Berlin", 2027, 1, 4, 8),
             expected: "2027-01-04 09:00"),
        Case(name: "overdue all-day daily moves past today", rule: "daily",
             due: .allDay(day(2027, 1, 1)), now: instant("Europe/Berlin", 2027, 1, 4, 8),
             expected: "2027-01-05"),
        Case(name: "completed before it is due, the next is after the current due", rule: "daily",
             due: timed("Europe/Berlin", 2027, 1, 10, 9), now: instant("Europe/Berlin", 2027, 1, 4, 8),
             expected: "2027-01-11 09:00"),
        Case(name: "COUNT within the series", rule: "RRULE:FREQ=DAILY;COUNT=3",
             due: timed("Europe/Berlin", 2027, 1, 1, 9), now: instant("Europe/Berlin", 2027, 1, 1, 10),
             expected: "2027-01-02 09:00"),
        Case(name: "COUNT exhausted", rule: "RRULE:FREQ=DAILY;COUNT=3",
             due: timed("Europe/Berlin", 2027, 1, 1, 9), now: instant("Europe/Berlin", 2027, 1, 5, 10),
             expected: nil),
        Case(name: "COUNT=1 has no next", rule: "RRULE:FREQ=WEEKLY;COUNT=1",
             due: .allDay(day(2027, 1, 1)), now: instant("Europe/Berlin", 2027, 1, 1, 10),
             expected: nil),
        Case(name: "UNTIL in the past", rule: "RRULE:FREQ=DAILY;UNTIL=20260101",
             due: .allDay(day(2027, 1, 1)), now: instant("Europe/Berlin", 2027, 1, 1, 10),
             expected: nil),
        Case(name: "UNTIL ahead", rule: "RRULE:FREQ=DAILY;UNTIL=20270103T235959",
             due: timed("Europe/Berlin", 2027, 1, 1, 9), now: instant("Europe/Berlin", 2027, 1, 1, 10),
             expected: "2027-01-02 09:00"),
        Case(name: "UNTIL in UTC is an instant: 09:00 EDT is 13:00Z, after 11:00Z", rule: "RRULE:FREQ=DAILY;UNTIL=19970905T110000Z",
             due: timed("America/New_York", 1997, 9, 4, 9), now: instant("America/New_York", 1997, 9, 4, 10),
             expected: nil),
        Case(name: "UNTIL in UTC at the occurrence's instant keeps it", rule: "RRULE:FREQ=DAILY;UNTIL=19970905T130000Z",
             due: timed("America/New_York", 1997, 9, 4, 9), now: instant("America/New_York", 1997, 9, 4, 10),
             expected: "1997-09-05 09:00"),
        Case(name: "UNTIL in UTC, completed from completion", rule: "RRULE:FREQ=DAILY;UNTIL=19970905T110000Z",
             due: timed("America/New_York", 1997, 9, 3, 9), now: instant("America/New_York", 1997, 9, 4, 10),
             completedAt: instant("America/New_York", 1997, 9, 4, 10), from: .completion, expected: nil),
        Case(name: "last Friday of the month", rule: "RRULE:FREQ=MONTHLY;BYDAY=-1FR",
             due: timed("Pacific/Auckland", 2027, 1, 29, 16), now: instant("Pacific/Auckland", 2027, 1, 29, 17),
             expected: "2027-02-26 16:00"),
    ]

    @Test(arguments: cases)
    func nextDue(_ test: Case) throws {
        let rule = try RepeatRule(parsing: test.rule)
        let next = rule.nextDue(after: test.due, completedAt: test.completedAt ?? test.now, from: test.from,
                                now: test.now, localZone: zone("Europe/Berlin"))
        #expect(local(next) == test.expected)
        if let expectedUTC = test.expectedUTC {
            guard case .at(let date, _)? = next else { Issue.record("expected a timed due"); return }
            #expect(date == expectedUTC)
        }
        if case .at(_, let dueZone) = test.due, case .at(_, let nextZone)? = next {
            #expect(nextZone == dueZone)
        }
    }
}

struct RepeatRulePropertyTests {
    static let rules = [
        "daily", "weekdays", "weekly", "monthly", "yearly", "every 2 weeks", "every 3 days", "every 6 months",
        "RRULE:FREQ=MONTHLY;BYMONTHDAY=31", "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
        "RRULE:FREQ=MONTHLY;BYDAY=-1FR", "RRULE:FREQ=DAILY;COUNT=5", "RRULE:FREQ=WEEKLY;UNTIL=20280101",
        "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
    ]
    static let zones = [
        "UTC", "America/New_York", "Europe/Berlin", "Europe/Dublin", "Australia/Lord_Howe", "Pacific/Auckland",
        "Asia/Kolkata", "America/St_Johns",
    ]

    @Test func nextDueIsAlwaysLaterAndNeverHangs() throws {
        let rules = try Self.rules.map { try RepeatRule(parsing: $0) }
        let zones = Self.zones.map(zone)
        var rng = SplitMix64(seed: 20_260_101)
        let start = utc("2026-01-01T00:00:00Z").timeIntervalSince1970
        let end = utc("2031-01-01T00:00:00Z").timeIntervalSince1970
        var failures = 0
        var found = 0
        for _ in 0..<100_000 {
            let rule = rules[Int(rng.next() % UInt64(rules.count))]
            let zone = zones[Int(rng.next() % UInt64(zones.count))]
            let now = Date(timeIntervalSince1970: start + Double(rng.next() % UInt64(end - start)))
            let clock = WallClock(zone: zone)
            let dueInstant = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60
                                  + Double(Int64(rng.next() % (80 * 1440)) - 40 * 1440) * 60)
            let due: Due = rng.next() % 5 == 0 ? .allDay(clock.day(of: dueInstant)) : .at(dueInstant, zone: zone)
            let from: RepeatFrom = rng.next() % 4 == 0 ? .completion : .due
            let completedAt = now.addingTimeInterval(-Double(rng.next() % 7200))
            let next = rule.nextDue(after: due, completedAt: completedAt, from: from, now: now, localZone: zone)
            guard let next else { continue }
            found += 1
            let ok: Bool
            switch (due, next, from) {
            case (.allDay(let current), .allDay(let nextDay), .due):
                ok = nextDay > current && nextDay > clock.day(of: now)
            case (.allDay, .allDay(let nextDay), .completion):
                ok = nextDay > clock.day(of: completedAt)
            case (.at(let current, _), .at(let nextDate, let nextZone), .due):
                ok = nextDate > current && nextDate > now && nextZone == zone
            case (.at, .at(let nextDate, let nextZone), .completion):
                ok = clock.day(of: nextDate) > clock.day(of: completedAt) && nextZone == zone
            default:
                ok = false
            }
            if !ok { failures += 1 }
        }
        #expect(failures == 0)
        #expect(found > 90_000)
    }
}
