import Foundation
import NudgeCore
import Testing
@testable import NudgeInterchange
@testable import NudgeTestSupport

/// Alarms as other programs fire them: reminders before an all-day due, and AUDIO alarms.
extension ICalendarFileTests {
    /// Written as TRIGGER;RELATED=END:-PT10M, other programs fired "10m before" an all-day due
    /// at 23:50 the day before (a DATE DUE is the start of its day); Nudge fires it at 08:50.
    @Test func aReminderBeforeAnAllDayDueIsWrittenForTheMomentNudgeFiresIt() throws {
        let spans = [TimeSpan(seconds: 600), TimeSpan(days: 1), TimeSpan(days: 2, seconds: 3 * 3600), TimeSpan(seconds: 9 * 3600)]
        let todo = record {
            $0.due = .allDay(LocalDate(year: 2026, month: 12, day: 24)!)
            $0.custom = spans.map(CustomReminder.before)
        }
        let written = lines(encode([todo]))
        #expect(written.contains("TRIGGER;RELATED=END;X-NUDGE-BEFORE=10m:PT8H50M"))
        #expect(written.contains("TRIGGER;RELATED=END;X-NUDGE-BEFORE=1d:-PT15H"))
        #expect(written.contains("TRIGGER;RELATED=END;X-NUDGE-BEFORE=2d3h:-P1DT18H"))
        #expect(written.contains("TRIGGER;RELATED=END;X-NUDGE-BEFORE=9h:PT0S"))
        #expect(try decode(encode([todo])).items.first?.get().custom == todo.custom)

        // Another all_day_time (by the todo's rules): the triggers follow it.
        var config = NudgeConfig()
        config.reminders.allDayTime = TimeOfDay(hour: 7, minute: 30)!
        let early = InterchangeOptions(zone: Self.berlin, now: Self.now, config: config)
        let text = ICalendarFile.encode([todo], options: early)
        #expect(text.contains("TRIGGER;RELATED=END;X-NUDGE-BEFORE=10m:PT7H20M\r\n"))
        #expect(try ICalendarFile.decode(Data(text.utf8), options: options).items.first?.get().custom == todo.custom)
    }

    /// A tag section's all_day_time is the todo's, as its reminders fire by it in Nudge.
    @Test func aTagSectionsAllDayTimePlacesTheTriggersOfItsTodos() throws {
        var config = NudgeConfig()
        config.byTag = [TagRules("money", overrides: RuleOverrides(allDayTime: TimeOfDay(hour: 7, minute: 0)!))]
        let tagged = InterchangeOptions(zone: Self.berlin, now: Self.now, config: config)
        let todo = record {
            $0.due = .allDay(LocalDate(year: 2026, month: 12, day: 24)!)
            $0.custom = [.before(TimeSpan(seconds: 600))]
            $0.category = "home"
            $0.tags = ["Money"]
        }
        let text = ICalendarFile.encode([todo], options: tagged)
        #expect(text.contains("TRIGGER;RELATED=END;X-NUDGE-BEFORE=10m:PT6H50M\r\n"), "\(text)")
        // From a program that does not write X-NUDGE-BEFORE: read by the tag's all_day_time too.
        let foreign = text.replacingOccurrences(of: ";X-NUDGE-BEFORE=10m", with: "")
        #expect(try ICalendarFile.decode(Data(foreign.utf8), options: tagged).items.first?.get().custom == todo.custom)
    }

    /// Python's icalendar, as other programs read the triggers: the moments Nudge fires.
    @Test func otherProgramsFireAnAllDayDuesRemindersWhenNudgeDoes() throws {
        let todo = record {
            $0.due = .allDay(LocalDate(year: 2026, month: 12, day: 24)!)
            $0.custom = [.before(TimeSpan(seconds: 600)), .before(TimeSpan(days: 1))]
        }
        let folder = TemporaryDirectory()
        try ICalendarFile.encode([todo], options: options).write(toFile: folder.file("out.ics"), atomically: true, encoding: .utf8)
        let read = try ChildProcess.output("/usr/bin/python3", ["-c", """
            import datetime, icalendar, sys
            todo = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read()).walk('VTODO')[0]
            due = datetime.datetime.combine(todo.decoded('DUE'), datetime.time())
            for alarm in todo.walk('VALARM'):
                print(due + alarm.decoded('TRIGGER'))
            """, folder.file("out.ics")], environment: ["PATH": "/usr/bin:/bin"])
        #expect(read == "2026-12-24 08:50:00\n2026-12-23 09:00:00\n")
    }

    /// Another program's TRIGGER;RELATED=END:-PT10M on a DATE DUE fires at 23:50 the day before
    /// (the due is the start of its day, as the export writes it): it was read as 10 minutes
    /// before the all_day_time, 09:10 later.
    @Test func anAllDayDuesTriggerFromElsewhereIsReadForTheMomentItFiresThere() throws {
        let alarms = ["-PT10M", "PT8H", "-P1DT15H", "PT10H"].flatMap { trigger in
            ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;RELATED=END:\(trigger)", "END:VALARM"]
        }
        let read = try decodeOne(["DUE;VALUE=DATE:20261224"] + alarms)
        // By the all_day_time, 09:00: 23:50 the day before, 08:00 and 18:00 two days before.
        #expect(read.custom == [.before(TimeSpan(seconds: 9 * 3600 + 600)), .before(TimeSpan(seconds: 3600)),
                                   .before(TimeSpan(days: 2))])
        // 10:00, after the all_day_time: no reminder before the due, kept as it came.
        #expect(read.kept["ics"]?.contains("TRIGGER;RELATED=END:PT10H") == true)

        // Written back, the alarms fire elsewhere when they did, and read again the same.
        let written = lines(encode([read]))
        #expect(written.contains("TRIGGER;RELATED=END;X-NUDGE-BEFORE=9h10m:-PT10M"))
        #expect(written.contains("TRIGGER;RELATED=END;X-NUDGE-BEFORE=1h:PT8H"))
        #expect(written.contains("TRIGGER;RELATED=END;X-NUDGE-BEFORE=2d:-P1DT15H"))
        #expect(written.contains("TRIGGER;RELATED=END:PT10H"))
        #expect(try decode(ICalendarFile.encode([read], options: options)).items.first?.get() == read)
    }

    /// An AUDIO alarm was read as a reminder and written back as DISPLAY.
    @Test func anAudioAlarmGoesBackAsAudio() throws {
        let read = try decodeOne(["DUE:20261224T090000Z", "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER;RELATED=END:-PT15M", "END:VALARM",
                                  "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;RELATED=END:-PT5M", "END:VALARM"])
        #expect(read.custom == [.before(TimeSpan(seconds: 900)), .before(TimeSpan(seconds: 300))])
        let text = encode([read])
        let alarms = text.components(separatedBy: "BEGIN:VALARM").dropFirst().map { $0.components(separatedBy: "END:VALARM")[0] }
        #expect(alarms.count == 2)
        #expect(alarms[0].contains("ACTION:AUDIO\r\n") && alarms[0].contains("TRIGGER;RELATED=END:-PT15M\r\n"), "\(alarms[0])")
        #expect(!alarms[0].contains("DESCRIPTION"))
        #expect(alarms[1].contains("ACTION:DISPLAY\r\n") && alarms[1].contains("TRIGGER;RELATED=END:-PT5M\r\n"))
        #expect(!text.contains(ICalendarFile.audioName))
        #expect(try decode(ICalendarFile.encode([read], options: options)).items.first?.get() == read)
    }
}
