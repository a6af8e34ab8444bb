import Foundation
import NudgeCore
import NudgeRecurrence
import Testing
@testable import NudgeTestSupport

/// Repeat rules against an oracle that shares no code with libical: python3-dateutil's rrule
/// with zoneinfo, run as a child process (rrule_oracle.py beside this file). Nudge's side is a
/// todo due at the series start, completed on time again and again.
struct RepeatRuleOracleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var zone: String
        /// The series start as typed: "1997-09-02T09:00", or a day for an all-day series.
        var start: String
        /// An RRULE value, without "RRULE:".
        var rule: String
        /// How many occurrences are compared (fewer when the series ends first).
        var count = 10
        /// EXDATE and RDATE, in `start`'s form.
        var exdates: [String] = []
        var rdates: [String] = []
        /// Compares only the occurrences after this wall-clock time (a series started long
        /// ago, completed late: its next dues from then on).
        var after: String?

        var testDescription: String { name }
    }

    /// RFC 5545 section 3.8.5.3's examples that a todo can repeat by (not the MINUTELY ones, nor
    /// the one of every 20 minutes by BYMINUTE),
    /// each with its own DTSTART in America/New_York.
    static let rfcExamples: [Case] = [
        Case(name: "daily for 10 occurrences", zone: ny, start: "1997-09-02T09:00", rule: "FREQ=DAILY;COUNT=10", count: 20),
        Case(name: "daily until December 24, 1997", zone: ny, start: "1997-09-02T09:00", rule: "FREQ=DAILY;UNTIL=19971224T000000Z", count: 200),
        Case(name: "every other day, forever", zone: ny, start: "1997-09-02T09:00", rule: "FREQ=DAILY;INTERVAL=2", count: 80),
        Case(name: "every 10 days, 5 occurrences", zone: ny, start: "1997-09-02T09:00", rule: "FREQ=DAILY;INTERVAL=10;COUNT=5"),
        Case(name: "every day in January, for 3 years (yearly)", zone: ny, start: "1998-01-01T09:00",
             rule: "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA", count: 100),
        Case(name: "every day in January, for 3 years (daily)", zone: ny, start: "1998-01-01T09:00",
             rule: "FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1", count: 100),
        Case(name: "weekly for 10 occurrences", zone: ny, start: "1997-09-02T09:00", rule: "FREQ=WEEKLY;COUNT=10", count: 20),
        Case(name: "weekly until December 24, 1997", zone: ny, start: "1997-09-02T09:00", rule: "FREQ=WEEKLY;UNTIL=19971224T000000Z", count: 30),
        Case(name: "every other week, forever", zone: ny, start: "1997-09-02T09:00", rule: "FREQ=WEEKLY;INTERVAL=2;WKST=SU", count: 30),
        Case(name: "weekly on Tuesday and Thursday for five weeks (UNTIL)", zone: ny, start: "1997-09-02T09:00",
             rule: "FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH", count: 20),
        Case(name: "weekly on Tuesday and Thursday for five weeks (COUNT)", zone: ny, start: "1997-09-02T09:00",
             rule: "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH", count: 20),
        Case(name: "every other week on Monday, Wednesday and Friday until December 24, 1997", zone: ny, start: "1997-09-01T09:00",
             rule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR", count: 40),
        Case(name: "every other week on Tuesday and Thursday, for 8 occurrences", zone: ny, start: "1997-09-02T09:00",
             rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH", count: 20),
        Case(name: "monthly on the first Friday for 10 occurrences", zone: ny, start: "1997-09-05T09:00",
             rule: "FREQ=MONTHLY;COUNT=10;BYDAY=1FR", count: 20),
        Case(name: "monthly on the first Friday until December 24, 1997", zone: ny, start: "1997-09-05T09:00",
             rule: "FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR"),
        Case(name: "every other month on the first and last Sunday, for 10 occurrences", zone: ny, start: "1997-09-07T09:00",
             rule: "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU", count: 20),
        Case(name: "monthly on the second-to-last Monday for 6 months", zone: ny, start: "1997-09-22T09:00",
             rule: "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO"),
        Case(name: "monthly on the third-to-the-last day, forever", zone: ny, start: "1997-09-28T09:00",
             rule: "FREQ=MONTHLY;BYMONTHDAY=-3", count: 24),
        Case(name: "monthly on the 2nd and 15th for 10 occurrences", zone: ny, start: "1997-09-02T09:00",
             rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15", count: 20),
        Case(name: "monthly on the first and last day for 10 occurrences", zone: ny, start: "1997-09-30T09:00",
             rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1", count: 20),
        Case(name: "every 18 months on the 10th thru 15th for 10 occurrences", zone: ny, start: "1997-09-10T09:00",
             rule: "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15", count: 20),
        Case(name: "every Tuesday, every other month", zone: ny, start: "1997-09-02T09:00",
             rule: "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU", count: 30),
        Case(name: "yearly in June and July for 10 occurrences", zone: ny, start: "1997-06-10T09:00",
             rule: "FREQ=YEARLY;COUNT=10;BYMONTH=6,7", count: 20),
        Case(name: "every other year on January, February and March for 10 occurrences", zone: ny, start: "1997-03-10T09:00",
             rule: "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3", count: 20),
        Case(name: "every third year on the 1st, 100th and 200th day for 10 occurrences", zone: ny, start: "1997-01-01T09:00",
             rule: "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200", count: 20),
        Case(name: "every 20th Monday of the year, forever", zone: ny, start: "1997-05-19T09:00", rule: "FREQ=YEARLY;BYDAY=20MO", count: 5),
        Case(name: "Monday of week number 20, forever", zone: ny, start: "1997-05-12T09:00", rule: "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", count: 5),
        Case(name: "every Thursday in March, forever", zone: ny, start: "1997-03-13T09:00", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=TH", count: 12),
        Case(name: "every Thursday, but only during June, July and August, forever", zone: ny, start: "1997-06-05T09:00",
             rule: "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8", count: 30),
        // The RFC starts on a day that is not one and takes it out with EXDATE; a todo starts
        // on the first Friday the 13th instead.
        Case(name: "every Friday the 13th, forever", zone: ny, start: "1998-02-13T09:00",
             rule: "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", count: 5),
        Case(name: "the first Saturday that follows the first Sunday of the month, forever", zone: ny, start: "1997-09-13T09:00",
             rule: "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13", count: 10),
        Case(name: "every 4 years, the first Tuesday after a Monday in November (election day)", zone: ny, start: "1996-11-05T09:00",
             rule: "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", count: 3),
        Case(name: "the third instance of Tuesday, Wednesday or Thursday, for the next 3 months", zone: ny, start: "1997-09-04T09:00",
             rule: "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3"),
        Case(name: "the second-to-last weekday of the month", zone: ny, start: "1997-09-29T09:00",
             rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", count: 7),
        Case(name: "every 3 hours from 9:00 AM to 5:00 PM on a specific day", zone: ny, start: "1997-09-02T09:00",
             rule: "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z", count: 10),
        Case(name: "WKST=MO changes what INTERVAL=2 with BYDAY gives", zone: ny, start: "1997-08-05T09:00",
             rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO"),
        Case(name: "WKST=SU changes what INTERVAL=2 with BYDAY gives", zone: ny, start: "1997-08-05T09:00",
             rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU"),
        Case(name: "an invalid date (February 30) is ignored", zone: ny, start: "2007-01-15T09:00",
             rule: "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5"),
    ]

    /// Wall-clock times that a DST change skips (a gap) or repeats (an overlap), in zones that
    /// change at 02:00, at midnight, by 30 minutes, or with negative DST (Dublin).
    static let dstCases: [Case] = [
        // Berlin: 02:00-03:00 skipped on 2027-03-28, repeated on 2027-10-31.
        Case(name: "Berlin daily at 02:30 across the gap", zone: "Europe/Berlin", start: "2027-03-26T02:30", rule: "FREQ=DAILY", count: 5),
        Case(name: "Berlin daily starting in the gap", zone: "Europe/Berlin", start: "2027-03-28T02:30", rule: "FREQ=DAILY", count: 4),
        Case(name: "Berlin daily at 02:30 across the overlap", zone: "Europe/Berlin", start: "2027-10-29T02:30", rule: "FREQ=DAILY", count: 5),
        Case(name: "Berlin weekly on Sunday 02:15", zone: "Europe/Berlin", start: "2027-03-21T02:15", rule: "FREQ=WEEKLY;COUNT=3"),
        Case(name: "Berlin on the last Sunday of each month at 02:30", zone: "Europe/Berlin", start: "2027-01-31T02:30",
             rule: "FREQ=MONTHLY;BYDAY=-1SU", count: 12),
        Case(name: "Berlin UNTIL in UTC before the moved 02:30", zone: "Europe/Berlin", start: "2027-03-26T02:30",
             rule: "FREQ=DAILY;UNTIL=20270328T011500Z"),
        Case(name: "Berlin UNTIL in UTC at the moved 02:30", zone: "Europe/Berlin", start: "2027-03-26T02:30",
             rule: "FREQ=DAILY;UNTIL=20270328T013000Z"),
        // New York: 02:00-03:00 skipped on 2027-03-14, 01:00-02:00 repeated on 2027-11-07.
        Case(name: "New York daily at 02:30 across the gap", zone: ny, start: "2027-03-12T02:30", rule: "FREQ=DAILY", count: 5),
        Case(name: "New York daily starting in the gap", zone: ny, start: "2027-03-14T02:30", rule: "FREQ=DAILY", count: 4),
        Case(name: "New York weekly on Sunday 02:30", zone: ny, start: "2027-03-07T02:30", rule: "FREQ=WEEKLY", count: 4),
        Case(name: "New York daily at 01:30 across the overlap", zone: ny, start: "2027-11-05T01:30", rule: "FREQ=DAILY", count: 5),
        Case(name: "New York UNTIL in UTC at the second 01:30", zone: ny, start: "2027-11-05T01:45",
             rule: "FREQ=DAILY;UNTIL=20271107T063000Z"),
        Case(name: "New York UNTIL in UTC at the first 01:30", zone: ny, start: "2027-11-05T01:30",
             rule: "FREQ=DAILY;UNTIL=20271107T053000Z"),
        Case(name: "New York UNTIL in UTC before the day's 09:00", zone: ny, start: "1997-09-02T09:00",
             rule: "FREQ=DAILY;UNTIL=19970905T110000Z"),
        Case(name: "New York floating UNTIL is wall-clock time", zone: ny, start: "1997-09-02T09:00",
             rule: "FREQ=DAILY;UNTIL=19970905T090000"),
        // Lord Howe: 02:00-02:30 skipped on 2027-10-03, 01:30-02:00 repeated on 2027-04-04.
        Case(name: "Lord Howe daily at 02:15 across the 30-minute gap", zone: "Australia/Lord_Howe", start: "2027-10-01T02:15",
             rule: "FREQ=DAILY", count: 5),
        Case(name: "Lord Howe daily starting in the gap", zone: "Australia/Lord_Howe", start: "2027-10-03T02:15", rule: "FREQ=DAILY", count: 3),
        Case(name: "Lord Howe daily at 01:45 across the 30-minute overlap", zone: "Australia/Lord_Howe", start: "2027-04-02T01:45",
             rule: "FREQ=DAILY", count: 5),
        Case(name: "Lord Howe on the first Sunday at 02:10", zone: "Australia/Lord_Howe", start: "2027-08-01T02:10",
             rule: "FREQ=MONTHLY;BYDAY=1SU", count: 4),
        // Auckland: 02:00-03:00 skipped on 2027-09-26, repeated on 2027-04-04.
        Case(name: "Auckland daily at 02:30 across the gap", zone: "Pacific/Auckland", start: "2027-09-24T02:30", rule: "FREQ=DAILY", count: 5),
        Case(name: "Auckland daily at 02:30 across the overlap", zone: "Pacific/Auckland", start: "2027-04-02T02:30", rule: "FREQ=DAILY", count: 5),
        Case(name: "Auckland weekly starting in the gap", zone: "Pacific/Auckland", start: "2027-09-26T02:30", rule: "FREQ=WEEKLY;COUNT=3"),
        // Santiago: midnight to 01:00 skipped on 2027-09-05; 23:00-24:00 repeated on 2027-04-03.
        Case(name: "Santiago daily at 00:30 across the midnight gap", zone: "America/Santiago", start: "2027-09-03T00:30",
             rule: "FREQ=DAILY", count: 5),
        Case(name: "Santiago daily at midnight across the midnight gap", zone: "America/Santiago", start: "2027-09-03T00:00",
             rule: "FREQ=DAILY", count: 5),
        Case(name: "Santiago daily at 23:30 across the overlap", zone: "America/Santiago", start: "2027-04-01T23:30",
             rule: "FREQ=DAILY", count: 5),
        // Tehran, 2021: midnight to 01:00 skipped on 03-22; 23:00-24:00 repeated on 09-21.
        Case(name: "Tehran daily at 00:30 across the midnight gap", zone: "Asia/Tehran", start: "2021-03-20T00:30", rule: "FREQ=DAILY", count: 5),
        Case(name: "Tehran daily at 23:30 across the overlap", zone: "Asia/Tehran", start: "2021-09-19T23:30", rule: "FREQ=DAILY", count: 5),
        // São Paulo, 2018: midnight to 01:00 skipped on 11-04; 23:00-24:00 repeated on 02-17.
        Case(name: "São Paulo daily at midnight across the midnight gap", zone: "America/Sao_Paulo", start: "2018-11-02T00:00",
             rule: "FREQ=DAILY", count: 5),
        Case(name: "São Paulo weekly on Saturday 23:15 across the overlap", zone: "America/Sao_Paulo", start: "2018-02-10T23:15",
             rule: "FREQ=WEEKLY;COUNT=3"),
        // Dublin (negative DST in tzdata): 01:00-02:00 skipped on 2027-03-28.
        Case(name: "Dublin daily at 01:30 across the gap", zone: "Europe/Dublin", start: "2027-03-26T01:30", rule: "FREQ=DAILY", count: 5),
        // Hourly: wall-clock hours, the gap's missing hour once at 03:00, the overlap's hour once.
        Case(name: "Berlin every 2h across the gap", zone: "Europe/Berlin", start: "2027-03-27T20:00", rule: "FREQ=HOURLY;INTERVAL=2", count: 20),
        Case(name: "Berlin hourly across the gap", zone: "Europe/Berlin", start: "2027-03-27T22:30", rule: "FREQ=HOURLY", count: 10),
        Case(name: "Berlin hourly across the overlap", zone: "Europe/Berlin", start: "2027-10-30T22:00", rule: "FREQ=HOURLY", count: 10),
        Case(name: "Berlin every 3h across the overlap", zone: "Europe/Berlin", start: "2027-10-30T20:15", rule: "FREQ=HOURLY;INTERVAL=3", count: 10),
        Case(name: "Berlin every 2h between 09:00-18:00 across the gap", zone: "Europe/Berlin", start: "2027-03-26T09:00",
             rule: "FREQ=HOURLY;INTERVAL=2;BYHOUR=9,10,11,12,13,14,15,16,17", count: 20),
        Case(name: "Berlin every 2h at night, with COUNT", zone: "Europe/Berlin", start: "2027-03-27T01:00",
             rule: "FREQ=HOURLY;INTERVAL=2;BYHOUR=1,2,3;COUNT=5", count: 10),
        Case(name: "Berlin hourly on weekdays", zone: "Europe/Berlin", start: "2027-03-26T21:00",
             rule: "FREQ=HOURLY;INTERVAL=4;BYDAY=MO,TU,WE,TH,FR", count: 12),
        Case(name: "Lord Howe hourly across the 30-minute gap", zone: "Australia/Lord_Howe", start: "2027-10-02T23:15",
             rule: "FREQ=HOURLY", count: 6),
        Case(name: "New York every 2h across the overlap", zone: ny, start: "2027-11-06T23:30", rule: "FREQ=HOURLY;INTERVAL=2", count: 6),
        // All-day series: days, whatever the clocks do.
        Case(name: "Berlin all-day weekly across the gap", zone: "Europe/Berlin", start: "2027-03-21", rule: "FREQ=WEEKLY;COUNT=4"),
        Case(name: "New York all-day on the last day of each month", zone: ny, start: "2027-01-31", rule: "FREQ=MONTHLY;BYMONTHDAY=-1", count: 6),
        // A negative BYMONTHDAY in a DAILY or HOURLY rule, which libical 3.0 never matches.
        Case(name: "Berlin daily on the last day of the month", zone: "Europe/Berlin", start: "2027-01-31T09:00",
             rule: "FREQ=DAILY;BYMONTHDAY=-1", count: 6),
        Case(name: "Berlin daily on the first and last days, with COUNT", zone: "Europe/Berlin", start: "2027-01-31T09:00",
             rule: "FREQ=DAILY;BYMONTHDAY=1,-1;COUNT=5", count: 10),
        Case(name: "Berlin every 2 days on the second to last day", zone: "Europe/Berlin", start: "2027-01-30T09:00",
             rule: "FREQ=DAILY;INTERVAL=2;BYMONTHDAY=-2", count: 6),
        Case(name: "Berlin hourly on February's 29th from the end", zone: "Europe/Berlin", start: "2028-02-01T00:00",
             rule: "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=-29", count: 24),  // the next, in 2032, is past the hourly horizon
        Case(name: "Berlin every 4h at 9 and 17 on the last day", zone: "Europe/Berlin", start: "2027-01-31T09:00",
             rule: "FREQ=HOURLY;INTERVAL=4;BYHOUR=9,17;BYMONTHDAY=-1", count: 6),
    ]

    /// BYWEEKNO, which Nudge applies itself (libical 3.0 found no week 53, nor week 20 alone).
    /// 2026 and 2032 have a week 53; 2029-12-31 is in week 1 of 2030.
    static let weekNumberCases: [Case] = [
        Case(name: "Berlin yearly in week 53", zone: "Europe/Berlin", start: "2026-12-28T09:00", rule: "FREQ=YEARLY;BYWEEKNO=53", count: 14),
        Case(name: "Berlin yearly in week 53, with COUNT", zone: "Europe/Berlin", start: "2026-12-28T09:00",
             rule: "FREQ=YEARLY;COUNT=10;BYWEEKNO=53", count: 20),
        Case(name: "Tokyo yearly in week 1", zone: "Asia/Tokyo", start: "2027-01-04T09:00", rule: "FREQ=YEARLY;BYWEEKNO=1", count: 30),
        Case(name: "New York yearly in the last week", zone: ny, start: "2026-12-28T09:00", rule: "FREQ=YEARLY;BYWEEKNO=-1", count: 30),
        Case(name: "New York yearly in week 20 alone", zone: ny, start: "2027-05-17T09:00", rule: "FREQ=YEARLY;BYWEEKNO=20", count: 10),
        Case(name: "Berlin Mondays and Fridays of week 53", zone: "Europe/Berlin", start: "2026-12-28T08:30",
             rule: "FREQ=YEARLY;BYWEEKNO=53;BYDAY=MO,FR", count: 6),
        Case(name: "New York week 53 until a UTC UNTIL", zone: ny, start: "2026-12-28T09:00",
             rule: "FREQ=YEARLY;BYWEEKNO=53;UNTIL=20321229T140000Z", count: 30),
        Case(name: "Berlin week 1 with weeks starting on Sunday", zone: "Europe/Berlin", start: "2027-01-03T09:00",
             rule: "FREQ=YEARLY;BYWEEKNO=1;WKST=SU", count: 21),
        Case(name: "Berlin week 53 in December only", zone: "Europe/Berlin", start: "2026-12-28T09:00",
             rule: "FREQ=YEARLY;BYWEEKNO=53;BYMONTH=12", count: 10),
        Case(name: "Berlin all-day in week 53", zone: "Europe/Berlin", start: "2026-12-28", rule: "FREQ=YEARLY;BYWEEKNO=53", count: 9),
        Case(name: "Berlin daily in week 53", zone: "Europe/Berlin", start: "2026-12-28T09:00", rule: "FREQ=DAILY;BYWEEKNO=53", count: 9),
        Case(name: "Berlin every 4h in week 1 at 9 and 17", zone: "Europe/Berlin", start: "2027-01-04T09:00",
             rule: "FREQ=HOURLY;INTERVAL=4;BYWEEKNO=1;BYHOUR=9,17", count: 16),
        Case(name: "New York weekly in week 20", zone: ny, start: "2027-05-17T09:00", rule: "FREQ=WEEKLY;BYWEEKNO=20", count: 10),
        Case(name: "New York weekly in week 20, weeks from Sunday", zone: ny, start: "2027-05-16T09:00",
             rule: "FREQ=WEEKLY;BYWEEKNO=20;WKST=SU", count: 10),
        Case(name: "Berlin monthly in week 53", zone: "Europe/Berlin", start: "2026-12-28T09:00", rule: "FREQ=MONTHLY;BYWEEKNO=53", count: 9),
        // Searched as the DAILY rules they amount to, in the periods INTERVAL steps on.
        Case(name: "Berlin yearly in week -53", zone: "Europe/Berlin", start: "2032-01-01T09:00", rule: "FREQ=YEARLY;BYWEEKNO=-53", count: 12),
        Case(name: "Berlin all-day in week -53", zone: "Europe/Berlin", start: "2032-01-01", rule: "FREQ=YEARLY;BYWEEKNO=-53", count: 8),
        Case(name: "Berlin every other year in week 1 at 8 and 20", zone: "Europe/Berlin", start: "2028-01-03T08:00",
             rule: "FREQ=YEARLY;INTERVAL=2;BYWEEKNO=1;BYHOUR=8,20", count: 20),
        Case(name: "New York every 5 months in weeks 1, 2 and the last", zone: ny, start: "2026-12-28T09:00",
             rule: "FREQ=MONTHLY;INTERVAL=5;BYWEEKNO=1,2,-1", count: 20),
        Case(name: "Tokyo every 3 weeks in weeks 10 to 14, from Sunday", zone: "Asia/Tokyo", start: "2027-03-14T09:00",
             rule: "FREQ=WEEKLY;INTERVAL=3;BYWEEKNO=10,11,12,13,14;WKST=SU", count: 20),
        Case(name: "Berlin week 53 in January", zone: "Europe/Berlin", start: "2027-01-01T09:00", rule: "FREQ=YEARLY;BYWEEKNO=53;BYMONTH=1", count: 8),
        Case(name: "Berlin week 53 with COUNT", zone: "Europe/Berlin", start: "2026-12-28T09:00", rule: "FREQ=YEARLY;BYWEEKNO=53;COUNT=9", count: 12),
        Case(name: "New York monthly on the 1st in week 1", zone: ny, start: "2027-01-01T09:00",
             rule: "FREQ=MONTHLY;BYMONTHDAY=1;BYWEEKNO=1,53", count: 5),
    ]

    /// Rules that occur once in decades, searched day by day (libical stepped through every
    /// hour, and the search stopped after two years): February 29 on a Sunday is in 2032,
    /// 2060 and 2088.
    static let rareCases: [Case] = [
        Case(name: "Berlin hourly on Sunday February 29 at 23", zone: "Europe/Berlin", start: "2032-02-29T23:00",
             rule: "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=SU;BYHOUR=23", count: 3),
        Case(name: "New York hourly on Sunday February 29 at 23, with COUNT", zone: ny, start: "2032-02-29T23:00",
             rule: "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=SU;BYHOUR=23;COUNT=2", count: 3),
        Case(name: "Berlin daily on Sunday February 29", zone: "Europe/Berlin", start: "2032-02-29T07:15",
             rule: "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=SU", count: 3),
        Case(name: "Berlin every 5 hours on February 29 at 3", zone: "Europe/Berlin", start: "2028-02-29T03:00",
             rule: "FREQ=HOURLY;INTERVAL=5;BYMONTH=2;BYMONTHDAY=29;BYHOUR=3", count: 3),
        Case(name: "Berlin every 7 days on February 29", zone: "Europe/Berlin", start: "2028-02-29T09:00",
             rule: "FREQ=DAILY;INTERVAL=7;BYMONTH=2;BYMONTHDAY=29", count: 2),
        Case(name: "Berlin daily at 9 and 17 on weekdays", zone: "Europe/Berlin", start: "2027-03-26T09:00",
             rule: "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9,17", count: 12),
        Case(name: "Berlin daily at 17 and 9 on weekdays, started at 17", zone: "Europe/Berlin", start: "2027-03-26T17:00",
             rule: "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9,17", count: 12),
        Case(name: "Berlin hourly on weekdays across the gap", zone: "Europe/Berlin", start: "2027-03-26T20:00",
             rule: "FREQ=HOURLY;INTERVAL=3;BYDAY=MO,FR,SA", count: 20),
    ]

    /// Monthly and yearly series with many occurrences a period, started in 1970 or 1900 (more
    /// than 10,000 occurrences ago): libical's iterator stepped from the series start and gave
    /// up before now, so they had no next due.
    static let oldCases: [Case] = [
        Case(name: "Berlin monthly on weekdays since 1970", zone: "Europe/Berlin", start: "1970-01-01T09:00",
             rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR", count: 12, after: "2026-12-04T10:00"),
        Case(name: "New York yearly on weekdays since 1970", zone: ny, start: "1970-01-01T09:00",
             rule: "FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR", count: 12, after: "2026-12-04T10:00"),
        Case(name: "New York monthly on odd days and the last since 1970", zone: ny, start: "1970-05-17T18:30",
             rule: "FREQ=MONTHLY;BYMONTHDAY=1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,-1", count: 20, after: "2026-11-20T07:00"),
        Case(name: "Berlin yearly on the first 20 days of every month since 1970", zone: "Europe/Berlin", start: "1970-03-04T07:15",
             rule: "FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
             count: 30, after: "2026-12-04T10:00"),
        Case(name: "Berlin monthly on the first 15 and the last weekday since 1900", zone: "Europe/Berlin", start: "1900-01-01T09:00",
             rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,-1", count: 20,
             after: "2026-12-16T10:00"),
        Case(name: "New York every 3 months on every day since 1900", zone: ny, start: "1900-02-10T09:00",
             rule: "FREQ=MONTHLY;INTERVAL=3;BYDAY=MO,TU,WE,TH,FR,SA,SU", count: 40, after: "2026-12-04T10:00"),
        Case(name: "Berlin every 3 years on every day since 1900", zone: "Europe/Berlin", start: "1900-06-15T09:00",
             rule: "FREQ=YEARLY;INTERVAL=3;BYDAY=MO,TU,WE,TH,FR,SA,SU", count: 20, after: "2026-12-04T10:00"),
        Case(name: "New York monthly on the 31st every hour since 1900", zone: ny, start: "1900-01-31T09:00",
             rule: "FREQ=MONTHLY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23", count: 30,
             after: "2026-12-04T10:00"),
        // Fewer than 10,000 occurrences: the series is moved to a leap year.
        Case(name: "Berlin yearly on February 29 every hour since 1904", zone: "Europe/Berlin", start: "1904-02-29T09:00",
             rule: "FREQ=YEARLY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYMINUTE=30", count: 30,
             after: "2026-12-04T10:00"),
        Case(name: "Berlin every 3 years in March on weekdays every hour since 1940", zone: "Europe/Berlin", start: "1940-03-01T09:00",
             rule: "FREQ=YEARLY;INTERVAL=3;BYMONTH=3;BYDAY=MO,TU,WE,TH,FR;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23",
             count: 30, after: "2026-12-04T10:00"),
    ]

    /// YEARLY rules with BYMONTHDAY and no BYMONTH: every month's days (libical expanded only
    /// DTSTART's month).
    static let yearlyMonthDayCases: [Case] = [
        Case(name: "Berlin yearly on the 1st, started on the 15th", zone: "Europe/Berlin", start: "2026-01-15T09:00",
             rule: "FREQ=YEARLY;BYMONTHDAY=1", count: 14, after: "2026-01-15T09:30"),
        Case(name: "New York every 2 years on the 31st and the 1st from the end", zone: ny, start: "2026-03-31T18:00",
             rule: "FREQ=YEARLY;INTERVAL=2;BYMONTHDAY=31,-1", count: 30),
        Case(name: "Berlin yearly on Friday the 13th", zone: "Europe/Berlin", start: "2026-02-13T09:00",
             rule: "FREQ=YEARLY;BYMONTHDAY=13;BYDAY=FR", count: 8),
        Case(name: "Berlin yearly on the second and the last of the 1sts and 15ths", zone: "Europe/Berlin", start: "2026-12-15T09:00",
             rule: "FREQ=YEARLY;BYMONTHDAY=1,15;BYSETPOS=2,-1", count: 6),
        Case(name: "New York yearly on the 10th with COUNT, all day", zone: ny, start: "2026-12-10",
             rule: "FREQ=YEARLY;BYMONTHDAY=10;COUNT=5", count: 8),
        Case(name: "Berlin yearly on the 1st and 15th since 1900", zone: "Europe/Berlin", start: "1900-01-01T09:00",
             rule: "FREQ=YEARLY;BYMONTHDAY=1,15", count: 10, after: "2026-12-04T10:00"),
    ]

    @Test(arguments: weekNumberCases + rareCases + oldCases + yearlyMonthDayCases)
    func caseLibicalGotWrongMatchesTheOracle(_ test: Case) throws {
        let expected = try oracle(test)
        #expect(!expected.isEmpty)
        #expect(try nudge(test) == expected)
    }

    /// Series with EXDATE and RDATE, against dateutil's rruleset.
    static let dateCases: [Case] = [
        Case(name: "daily COUNT=5 without the 11th and with the 20th (the audit's todo)", zone: "Europe/Berlin",
             start: "2026-12-10T09:00", rule: "FREQ=DAILY;COUNT=5", exdates: ["2026-12-11T09:00"], rdates: ["2026-12-20T09:00"]),
        Case(name: "an RDATE that is also an EXDATE is no due", zone: "Europe/Berlin", start: "2026-12-10T09:00",
             rule: "FREQ=DAILY;COUNT=3", exdates: ["2026-12-21T09:00"], rdates: ["2026-12-20T09:00", "2026-12-21T09:00"]),
        Case(name: "RDATEs between the rule's occurrences, at other times", zone: ny, start: "2027-01-04T09:00",
             rule: "FREQ=WEEKLY;BYDAY=MO", count: 6, exdates: ["2027-01-11T09:00"], rdates: ["2027-01-06T18:00", "2027-01-05T07:15"]),
        Case(name: "an RDATE after a UTC UNTIL", zone: "Europe/Berlin", start: "2026-12-10T09:00",
             rule: "FREQ=DAILY;UNTIL=20261212T080000Z", rdates: ["2026-12-15T09:00"]),
        Case(name: "an EXDATE that matches nothing changes nothing", zone: "Europe/Berlin", start: "2026-12-10T09:00",
             rule: "FREQ=DAILY;COUNT=3", exdates: ["2026-12-11T10:00"]),
        Case(name: "Berlin daily at 02:30: EXDATE in the gap, an RDATE in the gap", zone: "Europe/Berlin", start: "2027-03-26T02:30",
             rule: "FREQ=DAILY;COUNT=6", exdates: ["2027-03-28T02:30"], rdates: ["2027-03-28T02:45"]),
        Case(name: "Berlin daily at 02:30: EXDATE in the overlap, an RDATE in the overlap", zone: "Europe/Berlin",
             start: "2027-10-29T02:30", rule: "FREQ=DAILY;COUNT=5", exdates: ["2027-10-31T02:30"], rdates: ["2027-10-31T02:45"]),
        Case(name: "Berlin all-day daily across the gap, with EXDATE and RDATE", zone: "Europe/Berlin", start: "2027-03-26",
             rule: "FREQ=DAILY;COUNT=4", exdates: ["2027-03-27"], rdates: ["2027-04-05"]),
    ]

    @Test(arguments: dateCases)
    func seriesWithDatesMatchesTheOracle(_ test: Case) throws {
        let expected = try oracle(test)
        #expect(!expected.isEmpty)
        #expect(try nudge(test) == expected)
    }

    /// The oracle applies the dates (it is not simply agreeing with Nudge): dateutil's
    /// rruleset gives what the audit expected of the todo.
    @Test func theOracleTakesOutEXDATEsAndAddsRDATEs() throws {
        #expect(try oracle(Self.dateCases[0]) == ["2026-12-10T08:00:00Z", "2026-12-12T08:00:00Z", "2026-12-13T08:00:00Z",
                                                  "2026-12-14T08:00:00Z", "2026-12-20T08:00:00Z"])
    }

    @Test(arguments: rfcExamples)
    func rfcExampleMatchesTheOracle(_ test: Case) throws {
        let expected = try oracle(test)
        #expect(!expected.isEmpty)
        #expect(try nudge(test) == expected)
    }

    @Test(arguments: dstCases)
    func dstCaseMatchesTheOracle(_ test: Case) throws {
        let expected = try oracle(test)
        #expect(!expected.isEmpty)
        #expect(try nudge(test) == expected)
    }

    /// The oracle itself knows the RFC's answers (it is not simply agreeing with Nudge).
    @Test func theOracleGivesTheRFCsListedOccurrences() throws {
        let monthly = Case(name: "", zone: ny, start: "1997-09-05T09:00", rule: "FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR")
        // RFC 5545: September 5, October 3, November 7, December 5 (EDT until November).
        #expect(try oracle(monthly) == ["1997-09-05T13:00:00Z", "1997-10-03T13:00:00Z", "1997-11-07T14:00:00Z", "1997-12-05T14:00:00Z"])
        let gap = Case(name: "", zone: "Europe/Berlin", start: "2027-03-27T02:30", rule: "FREQ=DAILY", count: 3)
        // 02:30 CET, then 03:30 CEST (the gap), then 02:30 CEST.
        #expect(try oracle(gap) == ["2027-03-27T01:30:00Z", "2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z"])
    }

    // MARK: - The two sides

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("rrule_oracle.py").path

    /// The oracle's first `count` occurrences. Debian's python3 on purpose: another python3 on
    /// PATH may lack dateutil. A missing oracle fails the test.
    func oracle(_ test: Case) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script]
        process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
        func compact(_ text: String) -> String { text.filter { $0 != "-" && $0 != ":" } + (text.contains("T") ? "00" : "") }
        var input = "\(test.zone) \(compact(test.start)) \(test.count) \(test.rule)"
        if !test.exdates.isEmpty { input += " EXDATE=" + test.exdates.map(compact).joined(separator: ",") }
        if !test.rdates.isEmpty { input += " RDATE=" + test.rdates.map(compact).joined(separator: ",") }
        if let after = test.after { input += " AFTER=" + compact(after) }
        let run = try Run.launch(process, input: input + "\n")
        try #require(run.status == 0, "the oracle failed (is python3-dateutil installed?): \(run.stderr)")
        let line = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return line == "-" ? [] : line.split(separator: " ").map(String.init)
    }

    /// Nudge's first `count` occurrences: a todo due at the series start, completed each time
    /// when it is due (an all-day one at noon), until the series ends.
    func nudge(_ test: Case) throws -> [String] {
        let rule = try RepeatRule(parsing: "RRULE:" + test.rule)
        let zone = try #require(TimeZone(identifier: test.zone))
        let start = try #require(SeriesStart(parsing: test.start))
        let calendar = Calendar.nudge(zone: zone)
        var due: Due = start.time.map { .at(start.day.at(hour: $0.hour, minute: $0.minute, in: calendar), zone: zone) }
            ?? .allDay(start.day)
        if let after = test.after {
            let wall = try date(after)
            let instant = try wall.day.at(hour: #require(wall.time).hour, minute: #require(wall.time).minute, in: calendar)
            guard let next = rule.nextDue(after: due, completedAt: instant, from: .due, now: instant, localZone: zone,
                                          seriesStart: start) else { return [] }
            due = next
        }
        var result: [String] = []
        while result.count < test.count {
            let done: Date
            switch due {
            case .at(let instant, _):
                result.append(instant.ISO8601Format())
                done = instant
            case .allDay(let day):
                result.append(day.description)
                done = day.at(hour: 12, minute: 0, in: calendar)
            }
            guard let next = rule.nextDue(after: due, completedAt: done, from: .due, now: done, localZone: zone,
                                          seriesStart: start, exceptions: try test.exdates.map(date),
                                          additions: try test.rdates.map(date)) else { break }
            due = next
        }
        return result
    }

    private func date(_ text: String) throws -> SeriesStart {
        try #require(SeriesStart(parsing: text))
    }
}

private let ny = "America/New_York"
