import Foundation
import Testing
@testable import NudgeTestSupport

/// `--repeat` phrases end to end, at Sunday 2026-11-29 10:53 in Berlin.
struct RepeatPhraseCommandTests {
    let nudge = Nudge()

    /// A todo without --due gets the rule's first occurrence; `at` gives it its time of day.
    @Test(arguments: [
        ("every mon,thu", "Added 1: X (due Tomorrow)\nRepeats: every mon,thu (RRULE:FREQ=WEEKLY;BYDAY=MO,TH)\n", "2026-11-30"),
        ("every weekday at 9", "Added 1: X (due Tomorrow 09:00)\nRepeats: weekdays (RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR)\n",
         "2026-11-30T09:00:00+01:00"),
        ("every sun at 18:30", "Added 1: X (due Today 18:30)\nRepeats: every sun (RRULE:FREQ=WEEKLY;BYDAY=SU)\n", "2026-11-29T18:30:00+01:00"),
        ("every sun at 9", "Added 1: X (due Dec 6 09:00)\nRepeats: every sun (RRULE:FREQ=WEEKLY;BYDAY=SU)\n", "2026-12-06T09:00:00+01:00"),
        ("every 2 weeks on fri", "Added 1: X (due Fri)\nRepeats: every 2 weeks on fri (RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=FR)\n", "2026-12-04"),
        ("every 2 weeks on sat,sun at 8", "Added 1: X (due Sat 08:00)\nRepeats: every 2 weeks on sat,sun (RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU)\n",
         "2026-12-05T08:00:00+01:00"),
        ("every 2nd tue", "Added 1: X (due Dec 8)\nRepeats: every 2nd tue (RRULE:FREQ=MONTHLY;BYDAY=2TU)\n", "2026-12-08"),
        ("last fri of month at 4pm", "Added 1: X (due Dec 25 16:00)\nRepeats: every last fri (RRULE:FREQ=MONTHLY;BYDAY=-1FR)\n",
         "2026-12-25T16:00:00+01:00"),
        ("every month on the 15th", "Added 1: X (due Dec 15)\nRepeats: every month on the 15th (RRULE:FREQ=MONTHLY;BYMONTHDAY=15)\n",
         "2026-12-15"),
        ("every 2h", "Added 1: X (due Today 11:00)\nRepeats: every 2h (RRULE:FREQ=HOURLY;INTERVAL=2)\n", "2026-11-29T11:00:00+01:00"),
        ("every 2h between 09:00-18:00",
         "Added 1: X (due Today 11:00)\nRepeats: every 2h between 09:00-18:00 (RRULE:FREQ=HOURLY;INTERVAL=2;BYHOUR=9,10,11,12,13,14,15,16,17)\n",
         "2026-11-29T11:00:00+01:00"),
        ("every 3h between 12-18",
         "Added 1: X (due Today 12:00)\nRepeats: every 3h between 12:00-18:00 (RRULE:FREQ=HOURLY;INTERVAL=3;BYHOUR=12,13,14,15,16,17)\n",
         "2026-11-29T12:00:00+01:00"),
    ])
    func addWithoutADueTakesTheFirstOccurrence(text: String, output: String, due: String) throws {
        let added = try nudge("add", "X", "--repeat", text)
        #expect(added.stdout == output)
        #expect(added.stderr == "")
        #expect(try nudge("list", "--json").array().first?["due"] as? String == due)
    }

    @Test func atSetsTheTimeOfADayTypedWithDue() throws {
        #expect(try nudge("add", "Standup", "--due", "tue", "--repeat", "every weekday at 9").stdout
                == "Added 1: Standup (due Tue 09:00)\nRepeats: weekdays (RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR)\n")
        // The same time twice is no conflict.
        #expect(try nudge("add", "Gym", "--due", "mon 18:30", "--repeat", "every mon,thu at 18:30").status == 0)
        #expect(try Set(nudge("list", "--json").array().map { "\($0["title"]!) \($0["due"]!)" })
                == ["Standup 2026-12-01T09:00:00+01:00", "Gym 2026-11-30T18:30:00+01:00"])
    }

    @Test func editWithAtMovesTheDueToThatTime() throws {
        try nudge("add", "Gym", "--due", "thu 7am", "--repeat", "every mon,thu")
        let edited = try nudge("edit", "1", "--repeat", "every mon,thu at 18:00")
        #expect(edited.stdout == "Updated 1: Gym\n  due      Thu 07:00 → Thu 18:00\n")
        #expect(try nudge("show", "1").stdout.contains("  Repeats   every mon,thu (RRULE:FREQ=WEEKLY;BYDAY=MO,TH)\n"))
        try nudge("add", "Pay", "--due", "dec 3")
        #expect(try nudge("edit", "2", "--repeat", "every month on the 3rd").stdout
                == "Updated 2: Pay\n  repeat   never → every month on the 3rd (RRULE:FREQ=MONTHLY;BYMONTHDAY=3)\n")
        // An hourly rule needs a time: the all-day due is refused, nothing changes.
        let hourly = try nudge("edit", "2", "--repeat", "every 2h")
        #expect(hourly.status == 2)
        #expect(hourly.stderr == "nudge: an all-day todo can't repeat every 2h; give the due a time of day (--due \"tomorrow 9am\")\n")
        #expect(try nudge("edit", "1", "--due", "fri").status == 0)
        #expect(try nudge("edit", "1", "--repeat", "hourly").status == 2)
    }

    @Test func hourlyMovesOnByTheIntervalWhenDone() throws {
        try nudge("add", "Stretch", "--due", "today 11:00", "--repeat", "every 2h between 09:00-18:00")
        #expect(try nudge("done", "1").stdout == "Completed 1: Stretch; it repeats, next due Today 13:00\n")
        #expect(try nudge("done", "1").stdout == "Completed 1: Stretch; it repeats, next due Today 15:00\n")
        #expect(try nudge("done", "1").stdout == "Completed 1: Stretch; it repeats, next due Today 17:00\n")
        #expect(try nudge("done", "1").stdout == "Completed 1: Stretch; it repeats, next due Tomorrow 09:00\n")
    }

    @Test func explainPreviewsTheNextFiveDues() throws {
        try nudge("add", "Gym", "--due", "mon 18:30", "--repeat", "every mon,thu")
        let lines = try nudge("explain", "1").stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(9)
        #expect(Array(lines) == [
            "Todo 1: Gym",
            "  Due       Tomorrow 18:30 (Monday, November 30, 2026 at 18:30)",
            "  Repeats   every mon,thu (RRULE:FREQ=WEEKLY;BYDAY=MO,TH), counted from the due date",
            "  Then      Thu Dec  3 18:30  (if each is done when due)",
            "            Mon Dec  7 18:30",
            "            Thu Dec 10 18:30",
            "            Mon Dec 14 18:30",
            "            Thu Dec 17 18:30",
            "  Rules     [reminders]",
        ])
        try nudge("add", "Twice", "--due", "today", "--repeat", "RRULE:FREQ=WEEKLY;COUNT=2")
        #expect(try nudge("explain", "2").stdout.contains("""
              Then      Sun Dec  6  (if each is done when due)
                        nothing more: the series ends

            """))
        try nudge("add", "Plain", "--due", "today")
        #expect(try !nudge("explain", "3").stdout.contains("Then"))
    }

    /// The series keeps Berlin's 18:30; in New York the Due line, the preview and --json all
    /// say the local time it falls at, 12:30.
    @Test func explainPreviewsTheNextDuesInTheLocalZone() throws {
        try nudge("add", "Gym", "--due", "mon 18:30", "--repeat", "every mon,thu")
        var newYork = nudge
        newYork.zone = "America/New_York"
        let lines = try newYork("explain", "1").stdout.split(separator: "\n").prefix(5)
        #expect(Array(lines) == [
            "Todo 1: Gym",
            "  Due       Tomorrow 12:30 (Monday, November 30, 2026 at 12:30)",
            "  Repeats   every mon,thu (RRULE:FREQ=WEEKLY;BYDAY=MO,TH), counted from the due date",
            "  Then      Thu Dec  3 12:30  (if each is done when due)",
            "            Mon Dec  7 12:30",
        ])
        let previewed = try #require(try newYork("explain", "1", "--json").object()["nextDues"] as? [String])
        #expect(previewed.first == "2026-12-03T12:30:00-05:00")
    }

    @Test(arguments: [
        (["add", "x", "--repeat", "every funday"], "can't read 'every funday' as a repeat rule; use daily, weekdays"),
        (["add", "x", "--repeat", "every 2h between 09:30-18:00"], "can't read 'every 2h between 09:30-18:00' as a repeat rule"),
        (["add", "x", "--repeat", "every weekday at 25"], "can't read '25' in 'every weekday at 25' as a time of day"),
        (["add", "x", "--repeat", "every 2h at 9"], "repeats hourly, so 'at' has nothing to set"),
        (["add", "x", "--due", "fri 10am", "--repeat", "every weekday at 9"], "--due gives 10:00 but --repeat says at 09:00; give the time once"),
        (["add", "x", "--repeat", "RRULE:FREQ=MINUTELY;INTERVAL=30"], "repeats within an hour"),
    ] as [([String], String)])
    func refusesWithOneLineAndStoresNothing(arguments: [String], message: String) throws {
        let run = try nudge.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("nudge: "))
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        #expect(try nudge("list", "--json").array().isEmpty)
    }
}
