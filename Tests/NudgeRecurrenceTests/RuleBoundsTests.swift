import Foundation
import NudgeCore
import NudgeRecurrence
import Testing

/// Rules that never occur, or whose numbers libical would wrap, are refused with one line at
/// every door (`RepeatRule(parsing:)`); none takes long to be refused or to find its next
/// occurrence. (The 50 ms goal is measured by nudge-schedule-bench; here the bound is generous.)
struct RuleBoundsTests {
    private let berlin = TimeZone(identifier: "Europe/Berlin")!
    private var due: Due { .at(Date(timeIntervalSince1970: 1_796_371_200), zone: berlin) } // 2026-12-04 09:00 Berlin

    /// The CPU time this thread spends on `work`: unlike the wall clock, it does not grow when
    /// other processes keep the cores busy (make check runs beside stress-ng).
    private func seconds(_ work: () throws -> Void) rethrows -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = now()
        try work()
        return now() - start
    }

    @Test("rules that never occur are refused at once", arguments: [
        "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=MONTHLY;BYDAY=53MO", "FREQ=HOURLY;BYDAY=1MO",
        "FREQ=DAILY;BYMONTH=4,6,9,11;BYMONTHDAY=31", "FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=-30",
        "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=MONTHLY;BYMONTH=2;BYDAY=5MO;BYMONTHDAY=1",
        "FREQ=YEARLY;BYYEARDAY=367", "FREQ=DAILY;BYYEARDAY=366;BYMONTH=1",
        "FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30;BYSETPOS=1", "FREQ=YEARLY;BYWEEKNO=1;BYMONTH=2;BYMONTHDAY=30",
        // A BYSETPOS past every period's occurrences (dateutil finds none either). libical
        // looked for the monthly ones until the year 2582: 3 s each.
        "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6", "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-6", "FREQ=MONTHLY;BYMONTHDAY=1;BYSETPOS=2",
        "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=24", "FREQ=MONTHLY;BYSETPOS=2", "FREQ=YEARLY;BYDAY=MO;BYSETPOS=54",
        "FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=1;BYSETPOS=2", "FREQ=DAILY;BYSETPOS=2", "FREQ=HOURLY;BYHOUR=9;BYSETPOS=-2",
        // Leap months (RFC 7529) are in no Gregorian year; libical looked for them for 7 s.
        "FREQ=MONTHLY;BYMONTH=1L", "FREQ=YEARLY;BYMONTH=6L,12L",
    ])
    func aRuleThatNeverOccursIsRefused(_ rule: String) {
        let time = seconds {
            #expect(throws: InputError("can't use 'RRULE:\(rule)' as a repeat rule: it never occurs")) {
                try RepeatRule(parsing: "RRULE:" + rule)
            }
        }
        #expect(time < 1)
    }

    /// BYWEEKNO is now applied by Nudge, so a rule it narrows to no day is told apart too.
    @Test(arguments: ["FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6", "FREQ=YEARLY;BYWEEKNO=1;BYMONTH=7", "FREQ=YEARLY;BYWEEKNO=53;BYMONTHDAY=15",
                      "FREQ=MONTHLY;BYWEEKNO=1;BYMONTH=7", "FREQ=DAILY;BYWEEKNO=53;BYMONTH=7", "FREQ=HOURLY;BYWEEKNO=1;BYMONTH=6"])
    func aWeekNumberOfNoDayIsRefused(_ rule: String) {
        #expect(throws: InputError("can't use 'RRULE:\(rule)' as a repeat rule: it never occurs")) {
            try RepeatRule(parsing: "RRULE:" + rule)
        }
    }

    /// libical applies BYSETPOS to days and then adds every BYHOUR (or ignores it): the last
    /// weekday of each month at 9, 12 and 17, where dateutil gives 17 only. And BYWEEKNO,
    /// applied after libical, would come after a BYSETPOS that counts a whole month or year.
    @Test(arguments: [
        ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=9,12,17", "BYSETPOS with several BYHOUR values is not supported; give one BYHOUR, or drop BYSETPOS"),
        ("FREQ=DAILY;BYHOUR=9,17;BYSETPOS=1", "BYSETPOS with several BYHOUR values is not supported; give one BYHOUR, or drop BYSETPOS"),
        ("FREQ=YEARLY;BYWEEKNO=53;BYSETPOS=1", "BYSETPOS with BYWEEKNO in a YEARLY rule is not supported; drop one of them"),
        ("FREQ=MONTHLY;BYWEEKNO=1;BYDAY=MO;BYSETPOS=-1", "BYSETPOS with BYWEEKNO in a MONTHLY rule is not supported; drop one of them"),
    ])
    func aBYSETPOSThatLibicalAppliesToTheWrongSetIsRefused(_ rule: String, _ reason: String) {
        #expect(throws: InputError("can't use 'RRULE:\(rule)' as a repeat rule: \(reason)")) {
            try RepeatRule(parsing: "RRULE:" + rule)
        }
    }

    @Test func aBYSETPOSWithOneHourIsKept() throws {
        let rule = try RepeatRule(parsing: "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=17")
        let now = Date(timeIntervalSince1970: 1_796_371_200)
        guard case .at(let instant, _)? = rule.nextDue(after: due, completedAt: now, from: .due, now: now, localZone: berlin) else {
            Issue.record("no next due"); return
        }
        #expect(WallClock(zone: berlin).iso8601(instant).prefix(16) == "2026-12-31T17:00")
    }

    /// A series started more than 10,000 steps before now still has its next due after now
    /// (libical's iterator stepped from the series start and gave up after 10,000 occurrences).
    @Test(arguments: ["FREQ=DAILY", "FREQ=DAILY;BYHOUR=9", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU", "FREQ=DAILY;INTERVAL=3",
                      "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR,SA,SU", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR,SA,SU",
                      "FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR,SA,SU"])
    func aSeriesStartedLongAgoHasItsNextDue(_ text: String) throws {
        let rule = try RepeatRule(parsing: "RRULE:" + text)
        let now = Date(timeIntervalSince1970: 1_796_371_200) // 2026-12-04 09:00 Berlin
        let start = try #require(SeriesStart(parsing: "1970-01-01T09:00"))
        let first = Due.at(LocalDate(year: 1970, month: 1, day: 1)!.at(hour: 9, minute: 0, in: .nudge(zone: berlin)), zone: berlin)
        // 20,819 days from 1970-01-01 to 2026-12-31: every third day from it is the 5th, 8th, ...
        let expected = text.contains("INTERVAL=3") ? "2026-12-06T09:00" : "2026-12-05T09:00"
        let time = seconds {
            guard case .at(let instant, _)? = rule.nextDue(after: first, completedAt: now, from: .due, now: now, localZone: berlin,
                                                          seriesStart: start) else { Issue.record("no next due"); return }
            #expect(WallClock(zone: berlin).iso8601(instant).prefix(16) == expected)
        }
        #expect(time < 1)
        let allDay = rule.nextDue(after: .allDay(LocalDate(year: 1970, month: 1, day: 1)!), completedAt: now, from: .due, now: now,
                                  localZone: berlin)
        #expect(allDay == .allDay(LocalDate(iso: String(expected.prefix(10)))!))
    }

    /// FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=SU;BYHOUR=23 occurs in 2032 (dateutil); libical
    /// stepped through two years of hours (65 ms) and found none.
    @Test func aRuleOnceIn28YearsIsFoundQuickly() throws {
        let rule = try RepeatRule(parsing: "RRULE:FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=SU;BYHOUR=23")
        let now = Date(timeIntervalSince1970: 1_796_371_200)
        let time = seconds {
            for from in [RepeatFrom.due, .completion] {
                guard case .at(let instant, _)? = rule.nextDue(after: due, completedAt: now, from: from, now: now, localZone: berlin) else {
                    Issue.record("no next due"); return
                }
                #expect(WallClock(zone: berlin).iso8601(instant).prefix(16) == "2032-02-29T23:00")
            }
            guard case .at(let instant, _)? = rule.firstDue(now: now, zone: berlin, time: nil)?.due else {
                Issue.record("no first due"); return
            }
            #expect(WallClock(zone: berlin).iso8601(instant).prefix(16) == "2032-02-29T23:00")
        }
        #expect(time < 0.5)
    }

    /// A YEARLY rule of BYWEEKNO alone: week 1 of years with 53 weeks is next in 2032. libical
    /// expanded every day of every year to find it (170 ms a first due in a release build,
    /// 7 searches; 0.7 s and more for these 6 in a debug build, 0.1 s now).
    @Test func aRuleOfWeekNumbersAloneIsFoundQuickly() throws {
        let rule = try RepeatRule(parsing: "RRULE:FREQ=YEARLY;BYWEEKNO=-53")
        let now = Date(timeIntervalSince1970: 1_796_371_200)
        let time = try seconds {
            for _ in 0..<3 {
                let first = try #require(rule.firstDue(now: now, zone: berlin, time: nil))
                #expect(first.due == .allDay(LocalDate(year: 2032, month: 1, day: 1)!))
                #expect(rule.firstDue(now: now, zone: berlin, time: TimeOfDay(hour: 9, minute: 0)) != nil)
            }
        }
        #expect(time < 0.5)
    }

    @Test("rare rules still occur", arguments: [
        ("FREQ=MONTHLY;BYMONTH=2;BYDAY=5MO", "2044-02-29"), ("FREQ=YEARLY;BYDAY=53MO", "2029-12-31"),
        ("FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29", "2028-02-29 00:00"), ("FREQ=YEARLY;BYYEARDAY=366;BYDAY=MO", "2040-12-31"),
        ("FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=-29", "2028-02-01"),
        ("FREQ=MONTHLY;BYMONTH=2;BYDAY=MO;BYSETPOS=5", "2044-02-29"), ("FREQ=YEARLY;BYDAY=MO;BYSETPOS=53", "2029-12-31"),
        ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=23", "2026-12-31"), ("FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=29;BYSETPOS=1", "2028-02-29"),
    ])
    func aRareRuleStillOccurs(_ rule: String, _ expected: String) throws {
        let parsed = try RepeatRule(parsing: "RRULE:" + rule)
        let now = Date(timeIntervalSince1970: 1_796_371_200)
        let next = parsed.nextDue(after: .allDay(LocalDate(year: 2026, month: 12, day: 4)!), completedAt: now, from: .due,
                                  now: now, localZone: berlin)
        if expected.count == 10 {
            #expect(next == .allDay(LocalDate(iso: expected)!))
        } else {
            let timed = parsed.nextDue(after: due, completedAt: now, from: .due, now: now, localZone: berlin)
            guard case .at(let instant, _)? = timed else { Issue.record("no next due"); return }
            #expect(WallClock(zone: berlin).iso8601(instant).prefix(16) == expected.replacingOccurrences(of: " ", with: "T"))
        }
    }

    /// A negative BYMONTHDAY in a DAILY or HOURLY rule (February 1 of leap years here), which
    /// libical never matches, is applied by Nudge: found as dateutil finds it, without long work.
    /// (Before, libical stepped to the horizon and found none.)
    @Test(arguments: [("FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=-29", "2028-02-01T00:00"),
                      ("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=-29", "2028-02-01T09:00")])
    func aNegativeMonthDayInADailyOrHourlyRuleIsFoundQuickly(_ text: String, _ expected: String) throws {
        let rule = try RepeatRule(parsing: "RRULE:" + text)
        let now = Date(timeIntervalSince1970: 1_796_371_200)
        for from in [RepeatFrom.due, .completion] {
            let time = seconds {
                let next = rule.nextDue(after: due, completedAt: now, from: from, now: now, localZone: berlin)
                guard case .at(let instant, _)? = next else { Issue.record("no next due"); return }
                #expect(WallClock(zone: berlin).iso8601(instant).prefix(16) == expected)
            }
            #expect(time < 1)
        }
        let time = seconds { #expect(rule.firstDue(now: now, zone: berlin, time: nil) != nil) }
        #expect(time < 1)
    }

    /// A monthly INTERVAL that never lands on a BYMONTH from the due's month has no next
    /// occurrence, found at once (libical looked until the year 2582: 75 ms, 0.5 s for a first
    /// due, in December); from a month it lands on, the next is found (dateutil: 2027-06-04).
    @Test func aMonthlyIntervalThatMissesEveryBYMONTHHasNoNextOccurrenceQuickly() throws {
        let rule = try RepeatRule(parsing: "RRULE:FREQ=MONTHLY;INTERVAL=12;BYMONTH=6")
        let now = Date(timeIntervalSince1970: 1_796_371_200)
        let december = LocalDate(year: 2026, month: 12, day: 4)!
        // A hundred times over, so that the old cost (10 ms a search and more) stands far above
        // the new one even in a sanitizer build.
        let time = seconds {
            for _ in 0..<100 { for from in [RepeatFrom.due, .completion] {
                #expect(rule.nextDue(after: .allDay(december), completedAt: now, from: from, now: now, localZone: berlin) == nil)
                #expect(rule.nextDue(after: due, completedAt: now, from: from, now: now, localZone: berlin) == nil)
            } }
            for timeOfDay in [nil, TimeOfDay(hour: 9, minute: 0)] {
                #expect(rule.firstDue(now: now, zone: berlin, time: timeOfDay) == nil)
            }
        }
        // Looked for until 2582 these took 4 s or more together; now some tens of milliseconds.
        #expect(time < 1.5)
        let june = LocalDate(year: 2026, month: 6, day: 4)!
        #expect(rule.nextDue(after: .allDay(june), completedAt: now, from: .due, now: now, localZone: berlin)
            == .allDay(LocalDate(year: 2027, month: 6, day: 4)!))
    }

    /// One stored before rules were checked is treated as having no next occurrence.
    @Test func aStoredRuleThatNeverOccursHasNoNextOccurrence() throws {
        let now = Date(timeIntervalSince1970: 1_796_371_200)
        let todo = Todo(id: 1, title: "never", due: due, repetition: Repetition(rrule: "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30", from: .due),
                        createdAt: now, updatedAt: now)
        let time = try seconds { () throws in
            #expect(try todo.nextOccurrence(completedAt: now, localZone: berlin) == nil)
            #expect(try todo.nextDues(3, now: now, localZone: berlin).isEmpty)
        }
        #expect(time < 1)
    }

    @Test("numbers libical would wrap are refused", arguments: [
        ("FREQ=DAILY;COUNT=4294967297", "COUNT=4294967297"), ("FREQ=DAILY;COUNT=99999999999", "COUNT=99999999999"),
        ("FREQ=DAILY;COUNT=10001", "COUNT=10001"), ("FREQ=DAILY;INTERVAL=65537", "INTERVAL=65537"),
        ("FREQ=MONTHLY;BYMONTHDAY=4294967297", "BYMONTHDAY=4294967297"),
    ])
    func aNumberTooLargeIsRefused(_ rule: String, _ part: String) {
        #expect(throws: InputError("can't use 'RRULE:\(rule)' as a repeat rule: \(part) is too large; numbers in a rule (COUNT, INTERVAL, ...) go up to 10000")) {
            try RepeatRule(parsing: "RRULE:" + rule)
        }
    }

    @Test func theLargestNumbersAreKept() throws {
        #expect(try RepeatRule(parsing: "RRULE:FREQ=DAILY;COUNT=10000").rrule == "FREQ=DAILY;COUNT=10000")
        #expect(try RepeatRule(parsing: "RRULE:FREQ=DAILY;INTERVAL=010000").rrule == "FREQ=DAILY;INTERVAL=10000")
    }

    @Test("an UNTIL outside the years 0001-9999 is refused", arguments: [
        "UNTIL=00000101T000000Z", "UNTIL=00000101",
    ])
    func anUntilOutsideTheYearsIsRefused(_ until: String) {
        #expect(throws: InputError("can't use 'RRULE:FREQ=DAILY;\(until)' as a repeat rule: \(until) is not a date in the years 0001-9999 (UNTIL=20271231T235959Z or UNTIL=20271231)")) {
            try RepeatRule(parsing: "RRULE:FREQ=DAILY;" + until)
        }
    }

    @Test func severalMinutesOrSecondsAreRefusedAsMinutelyRulesAre() throws {
        let minutes = (0...59).map(String.init).joined(separator: ",")
        #expect(throws: InputError("can't use 'RRULE:FREQ=HOURLY;BYMINUTE=\(minutes)' as a repeat rule: BYMINUTE=\(minutes) repeats within an hour, and a todo repeats at most hourly; give one minute, or use FREQ=HOURLY")) {
            try RepeatRule(parsing: "RRULE:FREQ=HOURLY;BYMINUTE=" + minutes)
        }
        #expect(throws: InputError.self) { try RepeatRule(parsing: "RRULE:FREQ=DAILY;BYSECOND=0,30") }
        #expect(try RepeatRule(parsing: "RRULE:FREQ=DAILY;BYMINUTE=30").rrule == "FREQ=DAILY;BYMINUTE=30")
        #expect(try RepeatRule(parsing: "RRULE:FREQ=DAILY;BYMINUTE=30,30").rrule.hasPrefix("FREQ=DAILY;BYMINUTE=30"))
    }
}
