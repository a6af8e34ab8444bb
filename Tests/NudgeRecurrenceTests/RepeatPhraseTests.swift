import Foundation
import NudgeCore
import NudgeRecurrence
import Testing

struct RepeatPhraseTests {
    static let phrases: [(String, String, String)] = [
        // (typed, RRULE, description)
        ("hourly", "FREQ=HOURLY", "hourly"),
        ("every hour", "FREQ=HOURLY", "hourly"),
        ("every 2h", "FREQ=HOURLY;INTERVAL=2", "every 2h"),
        ("Every 3 hours", "FREQ=HOURLY;INTERVAL=3", "every 3h"),
        ("every 2h between 09:00-18:00", "FREQ=HOURLY;INTERVAL=2;BYHOUR=9,10,11,12,13,14,15,16,17", "every 2h between 09:00-18:00"),
        ("every 2h between 9 - 18", "FREQ=HOURLY;INTERVAL=2;BYHOUR=9,10,11,12,13,14,15,16,17", "every 2h between 09:00-18:00"),
        ("every hour between 9am and 5pm", "FREQ=HOURLY;BYHOUR=9,10,11,12,13,14,15,16", "hourly between 09:00-17:00"),
        ("hourly between 22:00-24:00", "FREQ=HOURLY;BYHOUR=22,23", "hourly between 22:00-24:00"),
        ("every mon,thu", "FREQ=WEEKLY;BYDAY=MO,TH", "every mon,thu"),
        ("every Monday and Thursday", "FREQ=WEEKLY;BYDAY=MO,TH", "every mon,thu"),
        ("every monday", "FREQ=WEEKLY;BYDAY=MO", "every mon"),
        ("every sat, sun", "FREQ=WEEKLY;BYDAY=SA,SU", "every sat,sun"),
        ("every 2 weeks on fri", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "every 2 weeks on fri"),
        ("weekly on tue,thu", "FREQ=WEEKLY;BYDAY=TU,TH", "every tue,thu"),
        ("every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "weekdays"),
        ("every 2nd tue", "FREQ=MONTHLY;BYDAY=2TU", "every 2nd tue"),
        ("every first monday of the month", "FREQ=MONTHLY;BYDAY=1MO", "every 1st mon"),
        ("last fri of month", "FREQ=MONTHLY;BYDAY=-1FR", "every last fri"),
        ("every last fri", "FREQ=MONTHLY;BYDAY=-1FR", "every last fri"),
        ("3rd wed of each month", "FREQ=MONTHLY;BYDAY=3WE", "every 3rd wed"),
        ("every month on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15", "every month on the 15th"),
        ("monthly on the 1st", "FREQ=MONTHLY;BYMONTHDAY=1", "every month on the 1st"),
        ("every 3 months on the 22nd", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=22", "every 3 months on the 22nd"),
        ("every month on the last day", "FREQ=MONTHLY;BYMONTHDAY=-1", "every month on the last day"),
        ("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2", "every 2 weeks"),
    ]

    @Test(arguments: phrases)
    func readsAPhraseAndDescribesItSoThatItReadsBack(text: String, rrule: String, description: String) throws {
        let rule = try RepeatRule(parsing: text)
        #expect(rule.rrule == rrule)
        #expect(rule.description == description)
        #expect(try RepeatRule(parsing: rule.description) == rule)
        #expect(rule.shownBack == "\(description) (RRULE:\(rrule))")
    }

    /// Rules typed as RRULE: get the phrase when one says them exactly, else stay RRULE:.
    @Test(arguments: [
        ("RRULE:FREQ=MONTHLY;BYDAY=-1FR", "every last fri"),
        ("RRULE:FREQ=HOURLY;INTERVAL=4", "every 4h"),
        ("RRULE:FREQ=HOURLY;BYHOUR=10,9", "RRULE:FREQ=HOURLY;BYHOUR=10,9"),
        ("RRULE:FREQ=HOURLY;BYHOUR=9,11", "RRULE:FREQ=HOURLY;BYHOUR=9,11"),
        ("RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU", "RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU"),
        ("RRULE:FREQ=MONTHLY;BYDAY=TU", "RRULE:FREQ=MONTHLY;BYDAY=TU"),
        ("RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3", "RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=MO"),
    ])
    func describesAnRRuleByAPhraseOnlyWhenExact(text: String, description: String) throws {
        let rule = try RepeatRule(parsing: text)
        #expect(rule.description == description)
        #expect(try RepeatRule(parsing: rule.description) == rule)
    }

    static let unreadable = [
        "every 2h between 9", "every 2h between 9-25",
        "every 2 days between 9-18", "every mon,mon", "every mon,funday", "2nd tue", "every 6th tue", "every 2nd",
        "last fri of year", "every month on the 32nd", "every month on the 15nd", "every month on the 0th",
        "every week on the 15th", "every 2 months on fri", "every and", "every mon and", "every 0h", "every h2",
    ]

    @Test(arguments: [
        ("every 2h between 18-9", "the window 18-9 does not run forward within a day; write the earlier hour first"),
        ("every 2h between 9am and 9am", "the window 9am and 9am does not run forward"),
        ("every 2h between 09:30-18:00", "a window is whole hours (09:00-18:00), and 09:30 is not on the hour"),
        ("hourly between 9-17:15", "and 17:15 is not on the hour"),
    ])
    func aWindowThatReadsButIsNoWindowSaysWhy(text: String, reason: String) {
        #expect {
            try RepeatRule(parsing: text)
        } throws: { error in
            let message = (error as? InputError)?.message ?? ""
            return message.hasPrefix("can't read '\(text)' as a repeat rule: ") && message.contains(reason)
        }
    }

    @Test(arguments: unreadable)
    func refusesWhatItCannotReadWithTheAcceptedForms(text: String) {
        #expect {
            try RepeatRule(parsing: text)
        } throws: { error in
            let message = (error as? InputError)?.message ?? ""
            return message.hasPrefix("can't read '\(text)' as a repeat rule; use daily")
                && message.contains("every mon,thu") && message.contains("every 2h [between 09:00-18:00]")
                && !message.contains("\n")
        }
    }

    @Test(arguments: [
        ("every weekday at 9", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "09:00"),
        ("every mon,thu at 18:30", "FREQ=WEEKLY;BYDAY=MO,TH", "18:30"),
        ("last fri of month at 4pm", "FREQ=MONTHLY;BYDAY=-1FR", "16:00"),
        ("daily at noon", "FREQ=DAILY", "12:00"),
        ("every month on the 15th at 9:05am", "FREQ=MONTHLY;BYMONTHDAY=15", "09:05"),
    ])
    func readsATimeOfDayAfterAt(text: String, rrule: String, time: String) throws {
        let reading = try RepeatRule.read(text)
        #expect(reading.rule.rrule == rrule)
        #expect(reading.time?.description == time)
    }

    @Test func readsNoTimeWithoutAt() throws {
        let reading = try RepeatRule.read("every sat")
        #expect(reading.rule.rrule == "FREQ=WEEKLY;BYDAY=SA")
        #expect(reading.time == nil)
        #expect(try RepeatRule.read("RRULE:FREQ=DAILY").time == nil)
    }

    @Test(arguments: [
        ("every weekday at 25", "as a time of day"),
        ("every weekday at 9:5", "as a time of day"),
        ("every 2h at 9", "repeats hourly"),
        ("every funday at 9", "as a repeat rule"),
    ])
    func refusesABadAt(text: String, message: String) {
        #expect {
            try RepeatRule.read(text)
        } throws: { error in
            (error as? InputError)?.message.contains(message) == true
        }
    }

    @Test(arguments: ["rrule:freq=minutely;interval=30", "RRULE:FREQ=SECONDLY"])
    func refusesRulesMoreOftenThanHourly(text: String) {
        #expect {
            try RepeatRule(parsing: text)
        } throws: { error in
            (error as? InputError)?.message.contains("repeats within an hour, and a todo repeats at most hourly; use FREQ=HOURLY") == true
        }
    }

    @Test func anAllDayTodoCannotRepeatHourly() throws {
        let day = LocalDate(year: 2027, month: 3, day: 1)!
        #expect(throws: InputError("an all-day todo can't repeat every 2h; give the due a time of day (--due \"tomorrow 9am\")")) {
            try RepeatRule(parsing: "every 2h").check(for: .allDay(day))
        }
        try RepeatRule(parsing: "every mon").check(for: .allDay(day))
        try RepeatRule(parsing: "every 2h").check(for: .at(Date(timeIntervalSince1970: 0), zone: TimeZone(identifier: "UTC")!))
        #expect(try RepeatRule(parsing: "hourly").nextDue(after: .allDay(day), completedAt: Date(timeIntervalSince1970: 0),
                                                           from: .due, now: Date(timeIntervalSince1970: 0),
                                                           localZone: TimeZone(identifier: "UTC")!) == nil)
    }
}
