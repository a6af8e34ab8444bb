import Foundation
import NudgeCore
import Testing
@testable import NudgeInterchange
@testable import NudgeTestSupport

struct ICalendarFileTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let utc = TimeZone(identifier: "UTC")!
    static let now = Date(timeIntervalSince1970: 1_795_000_000) // 2026-11-18T11:06:40Z
    let options = InterchangeOptions(zone: ICalendarFileTests.berlin, now: ICalendarFileTests.now)
    let created = Date(timeIntervalSince1970: 1_790_000_000)
    let uuid = "0f8fad5b-d9cb-469f-a165-70867728950e"

    func record(_ change: (inout TodoRecord) -> Void = { _ in }) -> TodoRecord {
        var record = TodoRecord(uuid: uuid, title: "Buy milk", createdAt: created, updatedAt: created.addingTimeInterval(60))
        change(&record)
        return record
    }

    /// A VCALENDAR around content lines.
    func calendar(_ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + lines + ["END:VCALENDAR"])
            .map { $0 + "\r\n" }.joined()
    }

    /// One VTODO with a UID and SUMMARY unless given.
    func todo(_ lines: [String]) -> [String] {
        var body = lines
        if !lines.contains(where: { $0.hasPrefix("UID") }) { body.insert("UID:\(uuid)", at: 0) }
        if !lines.contains(where: { $0.hasPrefix("SUMMARY") }) { body.insert("SUMMARY:Buy milk", at: 0) }
        return ["BEGIN:VTODO"] + body + ["END:VTODO"]
    }

    func decode(_ text: String) throws -> DecodedFile {
        try ICalendarFile.decode(Data(text.utf8), options: options)
    }

    func decodeOne(_ lines: [String]) throws -> TodoRecord {
        let file = try decode(calendar(todo(lines)))
        try #require(file.items.count == 1)
        return try file.items[0].get()
    }

    /// The export with folded lines joined again.
    func encode(_ records: [TodoRecord]) -> String {
        ICalendarFile.encode(records, options: options).replacingOccurrences(of: "\r\n ", with: "")
    }

    func lines(_ text: String) -> [String] {
        text.components(separatedBy: "\r\n")
    }

    // MARK: - Writing

    @Test func writesTheCalendarHeaderWithCRLFLines() {
        let text = ICalendarFile.encode([record()], options: options)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nPRODID:-//Nudge//Nudge//EN\r\nVERSION:2.0\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    @Test func writesTheFieldsOfATodo() {
        let text = encode([record {
            $0.notes = "two\nlines, with; marks"
            $0.category = "Home"
            $0.priority = .high
        }])
        let written = lines(text)
        #expect(written.contains("UID:\(uuid)"))
        #expect(written.contains("SUMMARY:Buy milk"))
        #expect(written.contains("DESCRIPTION:two\\nlines\\, with\\; marks"))
        #expect(written.contains("PRIORITY:1"))
        #expect(written.contains("CATEGORIES:Home"))
        #expect(written.contains("STATUS:NEEDS-ACTION"))
        #expect(written.contains("CREATED:20260921T141320Z"))
        #expect(written.contains("LAST-MODIFIED:20260921T141420Z"))
        #expect(written.contains("DTSTAMP:20260921T141420Z"))
        #expect(!written.contains { $0.hasPrefix("COMPLETED") || $0.hasPrefix("PERCENT-COMPLETE") })
    }

    @Test func exportingTheSameTodosLaterWritesTheSameFile() {
        let todos = [record { $0.due = .at(Self.now.addingTimeInterval(3600), zone: Self.berlin) }]
        let later = InterchangeOptions(zone: Self.berlin, now: Self.now.addingTimeInterval(86_400))
        #expect(ICalendarFile.encode(todos, options: options) == ICalendarFile.encode(todos, options: later))
    }

    @Test func controlCharactersOfTextAreWrittenAsReplacementCharacters() throws {
        let read = try decodeOne(lines(encode([record {
            $0.title = "Red\u{1B}[31m alert\u{7F}\u{85}\ttabbed\u{7}"
            $0.notes = "one\r\ntwo\nthree\rfour\u{0}five\u{9F}"
            $0.category = "Home\u{1B}"
            $0.custom = [.before(TimeSpan(seconds: 600))]
        }])).drop { $0 != "BEGIN:VTODO" }.dropFirst().prefix { $0 != "END:VTODO" })
        #expect(read.title == "Red\u{FFFD}[31m alert\u{FFFD}\u{FFFD}\ttabbed\u{FFFD}")
        #expect(read.notes == "one\ntwo\nthree\u{FFFD}four\u{FFFD}five\u{FFFD}")
        #expect(read.category == "Home\u{FFFD}")
    }

    /// Found by the ics fuzz target: a SUMMARY of U+0005 was imported as it is, exported as
    /// U+FFFD and imported again changed.
    @Test func controlCharactersOfTextAreReadAsTheExportWritesThem() throws {
        let read = try decodeOne(["SUMMARY:Call\u{5}Ann", "DESCRIPTION:one\u{1B}two", "CATEGORIES:Home\u{7F}"])
        #expect(read.title == "Call\u{FFFD}Ann")
        #expect(read.notes == "one\u{FFFD}two")
        #expect(read.category == "Home\u{FFFD}")
        let again = try decode(encode([read])).items[0].get()
        #expect(again.title == read.title && again.notes == read.notes && again.category == read.category)
    }

    /// Found by the ics fuzz target: the writer took every kept UID and freed only the first.
    @Test func aSecondUIDOfATodoIsCountedAsNotKept() throws {
        let file = try decode(calendar(todo(["UID:first", "UID:second"])))
        let read = try file.items[0].get()
        #expect(read.uuid == ICalendarFile.uuid(forUID: "first"))
        #expect(read.kept["ics"]?.contains("second") != true)
        #expect(file.notKept == ["second UIDs of a todo": 1])
        #expect(lines(encode([read])).filter { $0.hasPrefix("UID") } == ["UID:first"])
    }

    /// Found by the ics fuzz target: libical reads `UID:\(uid)` as " uid)", and the " uid)" it
    /// writes back as "uid)": the series went out under another UID than its override, which
    /// the next import dropped.
    @Test func anOverrideWhoseUIDHoldsAnEscapeStaysWithItsSeries() throws {
        let series = todo(["UID:\\(uid)", "DTSTART;TZID=Europe/Berlin:20261210T090000",
                           "DUE;TZID=Europe/Berlin:20261210T090000", "RRULE:FREQ=DAILY;COUNT=5"])
        let override = todo(["UID:\\(uid)", "SUMMARY:Water the big plants", "RECURRENCE-ID;TZID=Europe/Berlin:20261212T090000",
                             "DUE;TZID=Europe/Berlin:20261212T180000"])
        let first = try decode(calendar(series + override))
        #expect(first.overridesKept == 1)
        let written = encode(try first.items.map { try $0.get() })
        let again = try decode(written)
        #expect(again.overridesKept == 1)
        #expect(try again.items.map { try $0.get().uuid } == first.items.map { try $0.get().uuid })
        #expect(encode(try again.items.map { try $0.get() }) == written)
    }

    /// Found by the ics fuzz target: libical's constructors take no time after the year 3000
    /// and wrote `DUE:00000000T000000`, which no import reads.
    @Test func timesAfterTheYear3000GoOutAndComeBackAsTheyWere() throws {
        let instant = try #require(Calendar.nudge(zone: Self.utc).date(from: DateComponents(year: 6026, month: 12, day: 15, hour: 9)))
        let dues: [Due] = [.allDay(try #require(LocalDate(year: 6026, month: 12, day: 15))), .at(instant, zone: Self.utc),
                           .at(instant, zone: Self.berlin)]
        for due in dues {
            let far = record {
                $0.due = due
                $0.createdAt = instant
                $0.updatedAt = instant
                $0.completedAt = instant
                $0.custom = [.at(instant)]
                $0.remindedThrough = instant
            }
            let written = encode([far])
            #expect(!written.contains("00000000"), "\(written)")
            let back = try decode(written).items[0].get()
            #expect(back.due == due && back.createdAt == instant && back.updatedAt == instant && back.completedAt == instant)
            #expect(back.custom == [.at(instant)] && back.remindedThrough == instant)
        }
        let floating = try decodeOne(["DUE:60261215T090000"])
        #expect(lines(encode([floating])).contains("DUE:60261215T090000"))
    }

    /// Found by the import fuzz target: a time before the Gregorian reform (1582) was read
    /// through Foundation's calendar, which is Julian there, and written proleptic Gregorian, as
    /// RFC 5545 counts: the due moved 6 days at every round trip.
    @Test func timesBeforeTheGregorianReformComeBackAsTheyWere() throws {
        for line in ["DUE;TZID=Europe/Berlin:10130605T090000", "DUE;TZID=America/New_York:15821004T233000", "DUE:10130605T090000Z"] {
            let read = try decodeOne([line])
            let written = lines(encode([read]))
            #expect(written.contains(line), "\(written)")
            #expect(try decode(encode([read])).items[0].get().due == read.due)
        }
        let berlin = try decodeOne(["DUE;TZID=Europe/Berlin:10130605T090000"])
        guard case .at(let instant, _)? = berlin.due else { Issue.record("not a timed due"); return }
        #expect(WallClock(zone: Self.berlin).day(of: instant) == LocalDate(year: 1013, month: 6, day: 5))
        let alarm = try decodeOne(["DUE:10130605T090000", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:10130605T080000",
                                   "END:VALARM"])
        let moment = try #require(alarm.custom.first)
        guard case .at(let at) = moment else { Issue.record("not a moment: \(moment)"); return }
        #expect(WallClock(zone: Self.utc).day(of: at) == LocalDate(year: 1013, month: 6, day: 5))
    }

    /// RFC 5545 3.1 and 3.3.11: no CTL in a content line but HTAB, lines ending in CRLF.
    @Test func anExportHoldsNoControlCharacterButTabAndTheLineEnds() {
        let text = ICalendarFile.encode([record {
            $0.title = "\u{1B}]0;evil\u{7}\u{9B}31m"
            $0.notes = "a\rb\r\nc\u{1}"
            $0.custom = [.before(TimeSpan(seconds: 600))]
        }], options: options)
        let controls = text.replacingOccurrences(of: "\r\n", with: "").unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value)
        }
        #expect(controls.isEmpty, "\(controls.map { String($0.value, radix: 16) })")
    }

    @Test(arguments: [(Priority.high, "PRIORITY:1"), (.medium, "PRIORITY:5"), (.low, "PRIORITY:9")])
    func writesPriorities(priority: Priority, line: String) {
        #expect(lines(encode([record { $0.priority = priority }])).contains(line))
    }

    @Test func writesACompletedTodoWithStatusTimeAndPercent() {
        let done = created.addingTimeInterval(3600)
        let written = lines(encode([record { $0.completedAt = done }]))
        #expect(written.contains("STATUS:COMPLETED"))
        #expect(written.contains("COMPLETED:20260921T151320Z"))
        #expect(written.contains("PERCENT-COMPLETE:100"))
    }

    @Test func writesAnAllDayDueAsADate() {
        let written = lines(encode([record { $0.due = .allDay(LocalDate(year: 2026, month: 12, day: 24)!) }]))
        #expect(written.contains("DUE;VALUE=DATE:20261224"))
        #expect(!written.contains("BEGIN:VTIMEZONE"))
    }

    @Test func writesATimedDueWithItsZoneAndOneVTimezonePerZone() {
        let due = Date(timeIntervalSince1970: 1_798_099_200) // 2026-12-24 08:00 UTC
        let newYork = TimeZone(identifier: "America/New_York")!
        let text = encode([
            record { $0.due = .at(due, zone: ICalendarFileTests.berlin) },
            record { $0.uuid = "1f8fad5b-d9cb-469f-a165-70867728950e"; $0.due = .at(due, zone: ICalendarFileTests.berlin) },
            record { $0.uuid = "2f8fad5b-d9cb-469f-a165-70867728950e"; $0.due = .at(due, zone: newYork) },
        ])
        let written = lines(text)
        #expect(written.contains("DUE;TZID=Europe/Berlin:20261224T090000"))
        #expect(written.contains("DUE;TZID=America/New_York:20261224T030000"))
        #expect(written.filter { $0 == "BEGIN:VTIMEZONE" }.count == 2)
        #expect(written.filter { $0 == "TZID:Europe/Berlin" }.count == 1)
        #expect(written.contains("TZID:America/New_York"))
        // Each VTIMEZONE comes before the todos that use it.
        #expect(written.firstIndex(of: "TZID:Europe/Berlin")! < written.firstIndex(of: "BEGIN:VTODO")!)
    }

    /// The VTIMEZONE alone carries the zone: renamed to a name no system knows, it still
    /// places the due, in summer and in winter, and it starts near the due, not in 1893.
    @Test func theVTimezoneWrittenDescribesTheZone() throws {
        let winter = Date(timeIntervalSince1970: 1_798_099_200) // 2026-12-24 08:00 UTC
        let summer = Date(timeIntervalSince1970: 1_782_889_200) // 2026-07-01 07:00 UTC
        let text = ICalendarFile.encode([
            record { $0.due = .at(winter, zone: ICalendarFileTests.berlin) },
            record { $0.uuid = "1f8fad5b-d9cb-469f-a165-70867728950e"; $0.due = .at(summer, zone: ICalendarFileTests.berlin) },
        ], options: options)
        #expect(!text.contains("DTSTART:1893"))
        #expect(!text.contains("DTSTART:20240"))
        let renamed = text.replacingOccurrences(of: "Europe/Berlin", with: "Somewhere")
        let file = try decode(renamed)
        let dues = try file.items.map { try $0.get().due }
        guard case .at(let first, let zone)?? = dues.first, case .at(let second, _)?? = dues.last else {
            Issue.record("no timed dues: \(dues)")
            return
        }
        #expect(first == winter)
        #expect(second == summer)
        #expect(zone.secondsFromGMT(for: winter) == 3600)
        #expect(zone.secondsFromGMT(for: summer) == 7200)
    }

    @Test func writesAUTCDueWithZ() {
        let due = Date(timeIntervalSince1970: 1_798_099_200)
        let written = lines(encode([record { $0.due = .at(due, zone: ICalendarFileTests.utc) }]))
        #expect(written.contains("DUE:20261224T080000Z"))
        #expect(!written.contains("BEGIN:VTIMEZONE"))
    }

    @Test func writesARepetitionWithItsStartAndRepeatFromCompletion() {
        let due = Date(timeIntervalSince1970: 1_798_099_200)
        let written = lines(encode([record {
            $0.due = .at(due, zone: ICalendarFileTests.berlin)
            $0.repetition = Repetition(rrule: "FREQ=WEEKLY;INTERVAL=2", from: .completion,
                                       start: SeriesStart(day: LocalDate(year: 2026, month: 12, day: 10)!, time: TimeOfDay(hour: 9, minute: 0)))
        }]))
        #expect(written.contains("RRULE:FREQ=WEEKLY;INTERVAL=2"))
        #expect(written.contains("DTSTART;TZID=Europe/Berlin:20261210T090000"))
        #expect(written.contains("X-NUDGE-REPEAT-FROM:COMPLETION"))
    }

    @Test func writesOwnRemindersAsAlarmsWithUIDs() {
        let due = Date(timeIntervalSince1970: 1_798_099_200)
        let text = encode([record {
            $0.due = .at(due, zone: ICalendarFileTests.berlin)
            $0.custom = [.before(TimeSpan(seconds: 600)), .before(TimeSpan(days: 1)), .at(due.addingTimeInterval(-7200))]
            $0.usesDefaultRules = false
        }])
        let written = lines(text)
        #expect(written.contains("TRIGGER;RELATED=END:-PT10M"))
        #expect(written.contains("TRIGGER;RELATED=END:-P1D"))
        #expect(written.contains("TRIGGER;VALUE=DATE-TIME:20261224T060000Z"))
        #expect(written.filter { $0 == "ACTION:DISPLAY" }.count == 3)
        #expect(written.filter { $0.hasPrefix("UID:\(uuid)-") }.count == 3)
        #expect(written.contains("X-NUDGE-DEFAULT-REMINDERS:FALSE"))
    }

    @Test func writesASnoozeTheRFC9074Way() throws {
        let due = Date(timeIntervalSince1970: 1_798_099_200)
        let text = encode([record {
            $0.due = .at(due, zone: ICalendarFileTests.berlin)
            $0.custom = [.before(TimeSpan(seconds: 600))]
            $0.snoozedUntil = due.addingTimeInterval(1800)
        }])
        let written = lines(text)
        let related = try #require(written.first { $0.hasPrefix("RELATED-TO;RELTYPE=SNOOZE:") })
        let snoozedUID = String(related.dropFirst("RELATED-TO;RELTYPE=SNOOZE:".count))
        let snoozed = try #require(written.firstIndex(of: "UID:" + snoozedUID))
        let alarmEnd = try #require(written[snoozed...].firstIndex(of: "END:VALARM"))
        #expect(written[snoozed..<alarmEnd].contains("ACKNOWLEDGED:20261118T110640Z"))
        #expect(written[snoozed..<alarmEnd].contains("TRIGGER;RELATED=END:-PT10M"))
        #expect(written.contains("TRIGGER;VALUE=DATE-TIME:20261224T083000Z"))
    }

    // MARK: - Reading

    @Test func readsTheFieldsOfATodo() throws {
        let read = try decodeOne([
            "DESCRIPTION:two\\nlines\\, here", "PRIORITY:1", "CATEGORIES:Home,Errands", "STATUS:NEEDS-ACTION",
            "CREATED:20260921T141320Z", "LAST-MODIFIED:20260922T141320Z", "DTSTAMP:20260923T000000Z",
        ])
        #expect(read.uuid == uuid)
        #expect(read.title == "Buy milk")
        #expect(read.notes == "two\nlines, here")
        #expect(read.priority == .high)
        #expect(read.category == "Home")
        #expect(read.tags == ["Errands"])
        #expect(read.kept["ics"] == nil)
        #expect(read.completedAt == nil)
        #expect(read.createdAt == Date(timeIntervalSince1970: 1_790_000_000))
        #expect(read.updatedAt == Date(timeIntervalSince1970: 1_790_086_400))
    }

    @Test(arguments: [(0, Priority.medium), (1, .high), (2, .high), (4, .high), (5, .medium), (6, .low), (9, .low)])
    func readsPriorities(value: Int, priority: Priority) throws {
        let read = try decodeOne(["PRIORITY:\(value)"])
        #expect(read.priority == priority)
        // An unchanged priority is written back as it was read.
        #expect(lines(encode([read])).contains("PRIORITY:\(value)"))
    }

    @Test func aMissingPriorityIsMediumAndAChangedOneIsWrittenAfresh() throws {
        let missing = try decodeOne([])
        #expect(missing.priority == .medium)
        // Undefined (0) stays undefined while unchanged.
        #expect(lines(encode([missing])).contains("PRIORITY:0"))
        var read = try decodeOne(["PRIORITY:2"])
        read.priority = .low
        #expect(lines(encode([read])).contains("PRIORITY:9"))
        #expect(!lines(encode([read])).contains("PRIORITY:2"))
    }

    @Test func timesFallBackToOneAnother() throws {
        let onlyStamp = try decodeOne(["DTSTAMP:20260923T000000Z"])
        #expect(onlyStamp.createdAt == Date(timeIntervalSince1970: 1_790_121_600))
        #expect(onlyStamp.updatedAt == Date(timeIntervalSince1970: 1_790_121_600))
        let modified = try decodeOne(["LAST-MODIFIED:20260922T141320Z"])
        #expect(modified.createdAt == Date(timeIntervalSince1970: 1_790_086_400))
        let none = try decodeOne([])
        #expect(none.createdAt == ICalendarFileTests.now)
    }

    @Test func readsCompletion() throws {
        let byStatus = try decodeOne(["STATUS:COMPLETED", "LAST-MODIFIED:20260922T141320Z"])
        #expect(byStatus.completedAt == Date(timeIntervalSince1970: 1_790_086_400))
        let byTime = try decodeOne(["COMPLETED:20260921T141320Z", "PRIORITY:5"])
        #expect(byTime.completedAt == Date(timeIntervalSince1970: 1_790_000_000))
        #expect(byTime.kept.isEmpty)
    }

    @Test(arguments: ["IN-PROCESS"])
    func keepsOtherStatusesSoThatTheyComeBack(status: String) throws {
        let read = try decodeOne(["STATUS:\(status)", "PERCENT-COMPLETE:40"])
        #expect(read.completedAt == nil)
        let written = lines(encode([read]))
        #expect(written.contains("STATUS:\(status)"))
        #expect(written.contains("PERCENT-COMPLETE:40"))
        #expect(!written.contains("STATUS:NEEDS-ACTION"))
    }

    @Test func aCancelledTodoIsDoneWithAndGoesBackCancelled() throws {
        let read = try decodeOne(["STATUS:CANCELLED", "DUE:20261224T090000Z", "LAST-MODIFIED:20260922T141320Z"])
        // As Taskwarrior's `deleted`: completed, so neither pending nor reminded.
        #expect(read.completedAt == Date(timeIntervalSince1970: 1_790_086_400))
        let written = lines(encode([read]))
        #expect(written.contains("STATUS:CANCELLED"))
        #expect(!written.contains { $0.hasPrefix("COMPLETED") || $0.hasPrefix("PERCENT-COMPLETE") })
        #expect(!written.contains("STATUS:COMPLETED") && !written.contains("STATUS:NEEDS-ACTION"))
        #expect(try decodeOne(Array(written.drop { $0 != "BEGIN:VTODO" }.dropFirst().prefix { $0 != "END:VTODO" }))
            .completedAt == read.completedAt)
    }

    @Test func aCancelledTodoKeepsItsCompletionTimeAndPercentAsTheyWere() throws {
        let read = try decodeOne(["STATUS:CANCELLED", "COMPLETED:20260921T141320Z", "PERCENT-COMPLETE:40"])
        #expect(read.completedAt == Date(timeIntervalSince1970: 1_790_000_000))
        let written = lines(encode([read]))
        #expect(written.contains("STATUS:CANCELLED"))
        #expect(written.filter { $0.hasPrefix("COMPLETED") } == ["COMPLETED:20260921T141320Z"])
        #expect(written.filter { $0.hasPrefix("PERCENT-COMPLETE") } == ["PERCENT-COMPLETE:40"])
    }

    @Test func aCancelledTodoReopenedInNudgeIsWrittenPending() throws {
        var read = try decodeOne(["STATUS:CANCELLED", "COMPLETED:20260921T141320Z", "PERCENT-COMPLETE:40"])
        read.completedAt = nil
        let written = lines(encode([read]))
        #expect(written.contains("STATUS:NEEDS-ACTION"))
        #expect(!written.contains("STATUS:CANCELLED"))
        #expect(!written.contains { $0.hasPrefix("COMPLETED") || $0.hasPrefix("PERCENT-COMPLETE") })
    }

    @Test func readsAllDayTimedUTCAndFloatingDues() throws {
        #expect(try decodeOne(["DUE;VALUE=DATE:20261224"]).due == .allDay(LocalDate(year: 2026, month: 12, day: 24)!))
        let instant = Date(timeIntervalSince1970: 1_798_099_200) // 08:00 UTC
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(try decodeOne(["DUE;TZID=America/New_York:20261224T030000"]).due == .at(instant, zone: newYork))
        #expect(try decodeOne(["DUE:20261224T080000Z"]).due == .at(instant, zone: ICalendarFileTests.utc))
        // Floating: in options.zone (Berlin, UTC+1).
        #expect(try decodeOne(["DUE:20261224T090000"]).due == .at(instant, zone: ICalendarFileTests.berlin))
    }

    /// RFC 5545 3.6.2 and 3.3.6: without DUE, the due is DTSTART plus DURATION, days as
    /// calendar days (across a DST change too), hours exact.
    static let startsWithDurations: [[String]] = [
        ["DTSTART;TZID=Europe/Berlin:20270327T120000", "DURATION:P1D"],
        ["DTSTART;TZID=Europe/Berlin:20270328T013000", "DURATION:PT2H"],
        ["DTSTART;TZID=America/New_York:20261231T220000", "DURATION:P9DT3H15M"],
        ["DTSTART;TZID=Asia/Kolkata:20261224T090000", "DURATION:P2W"],
        ["DTSTART:20261224T090000Z", "DURATION:PT45M"],
        ["DTSTART:20261224T090000", "DURATION:PT30M"],
        ["DTSTART;VALUE=DATE:20261224", "DURATION:P2D"],
    ]

    @Test func aDueIsDTStartPlusDurationAsPythonsIcalendarComputesIt() throws {
        let text = calendar(Self.startsWithDurations.flatMap { todo(["UID:\(UUID().uuidString)"] + $0) })
        let file = try decode(text)
        let read = try file.items.map { item -> String in
            switch try item.get().due {
            case .allDay(let day)?: return day.description
            case .at(let instant, _)?: return String(Int(instant.timeIntervalSince1970))
            case nil: return "none"
            }
        }
        // Debian's python3-icalendar reads the file; zoneinfo places the times (a floating one
        // in the zone of the import, Europe/Berlin).
        let folder = TemporaryDirectory()
        try text.write(toFile: folder.file("in.ics"), atomically: true, encoding: .utf8)
        let oracle = try ChildProcess.run("/usr/bin/python3", ["-c", """
            import datetime, icalendar, sys, zoneinfo
            for todo in icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read()).walk('VTODO'):
                start, duration = todo.decoded('DTSTART'), todo.decoded('DURATION')
                if not isinstance(start, datetime.datetime):
                    print((start + duration).isoformat())
                    continue
                tzid = todo['DTSTART'].params.get('TZID')
                zone = zoneinfo.ZoneInfo(tzid) if tzid else datetime.timezone.utc if start.tzinfo else zoneinfo.ZoneInfo('Europe/Berlin')
                wall = start.replace(tzinfo=zone) + datetime.timedelta(days=duration.days)
                print(int((wall.astimezone(datetime.timezone.utc) + datetime.timedelta(seconds=duration.seconds)).timestamp()))
            """, folder.file("in.ics")], environment: ["PATH": "/usr/bin:/bin"])
        try #require(oracle.status == 0, "\(oracle.stderr)")
        #expect(read == oracle.stdout.split(separator: "\n").map(String.init))
        #expect(read[0] == "1806228000") // 2027-03-28T12:00:00+02:00, a calendar day after 12:00+01:00
        #expect(read[1] == "1806201000") // 2027-03-28T04:30:00+02:00, two hours after 01:30+01:00
    }

    @Test func aDueFromADurationIsWrittenAsDueWithoutTheDuration() throws {
        let read = try decodeOne(["DTSTART;TZID=Europe/Berlin:20261224T090000", "DURATION:PT1H"])
        #expect(read.due == .at(Date(timeIntervalSince1970: 1_798_102_800), zone: Self.berlin))
        let written = lines(encode([read]))
        #expect(written.contains("DUE;TZID=Europe/Berlin:20261224T100000"))
        #expect(written.contains("DTSTART;TZID=Europe/Berlin:20261224T090000"))
        #expect(!written.contains { $0.hasPrefix("DURATION") })
        // A DUE beside it (which RFC 5545 forbids) wins, and the DURATION stays as it was.
        let both = try decodeOne(["DUE:20261225T090000Z", "DTSTART:20261224T090000Z", "DURATION:PT1H"])
        #expect(both.due == .at(Date(timeIntervalSince1970: 1_798_189_200), zone: Self.utc))
        #expect(lines(encode([both])).contains("DURATION:PT1H"))
    }

    @Test func readsARepetitionFromRRuleDTStartAndRepeatFrom() throws {
        let read = try decodeOne(["DUE;TZID=Europe/Berlin:20261224T090000", "DTSTART;TZID=Europe/Berlin:20261210T023000",
                                  "RRULE:FREQ=WEEKLY;INTERVAL=2", "X-NUDGE-REPEAT-FROM:COMPLETION", "PRIORITY:5"])
        #expect(read.repetition == Repetition(rrule: "FREQ=WEEKLY;INTERVAL=2", from: .completion,
                                              start: SeriesStart(day: LocalDate(year: 2026, month: 12, day: 10)!,
                                                                 time: TimeOfDay(hour: 2, minute: 30))))
        #expect(read.kept.isEmpty)
        let allDay = try decodeOne(["DUE;VALUE=DATE:20261224", "DTSTART;VALUE=DATE:20261203", "RRULE:FREQ=DAILY"])
        #expect(allDay.repetition == Repetition(rrule: "FREQ=DAILY", from: .due,
                                                start: SeriesStart(day: LocalDate(year: 2026, month: 12, day: 3)!, time: nil)))
    }

    @Test func keepsARuleNudgeCannotRepeat() throws {
        let withoutDue = try decodeOne(["DTSTART:20261210T090000Z", "RRULE:FREQ=WEEKLY", "PRIORITY:5"])
        #expect(withoutDue.repetition == nil)
        #expect(withoutDue.kept["ics"] == "DTSTART:20261210T090000Z\nRRULE:FREQ=WEEKLY\n")
        let minutely = try decodeOne(["DUE:20261210T090000Z", "RRULE:FREQ=MINUTELY", "PRIORITY:5"])
        #expect(minutely.repetition == nil)
        #expect(lines(encode([minutely])).contains("RRULE:FREQ=MINUTELY"))
        let allDayHourly = try decodeOne(["DUE;VALUE=DATE:20261210", "RRULE:FREQ=HOURLY", "PRIORITY:5"])
        #expect(allDayHourly.repetition == nil)
        #expect(lines(encode([allDayHourly])).contains("RRULE:FREQ=HOURLY"))
        let hourly = try decodeOne(["DUE:20261210T090000Z", "RRULE:FREQ=HOURLY;INTERVAL=2", "PRIORITY:5"])
        #expect(hourly.repetition == Repetition(rrule: "FREQ=HOURLY;INTERVAL=2", from: .due))
    }

    @Test func readsATZIDWithLibicalsPrefix() throws {
        let read = try decodeOne(["DUE;TZID=/freeassociation.sourceforge.net/Europe/Berlin:20261224T090000"])
        #expect(read.due == .at(Date(timeIntervalSince1970: 1_798_099_200), zone: ICalendarFileTests.berlin))
    }

    /// Outlook names zones the Windows way: CLDR's table gives the IANA zone, with or without
    /// the file's VTIMEZONE.
    @Test(arguments: [("W. Europe Standard Time", "Europe/Berlin"), ("Eastern Standard Time", "America/New_York"),
                      ("AUS Eastern Standard Time", "Australia/Sydney"), ("India Standard Time", "Asia/Calcutta")])
    func readsAWindowsZoneNameAsItsIANAZone(windows: String, iana: String) throws {
        let read = try decodeOne(["DUE;TZID=\(windows):20260701T090000"])
        guard case .at(let instant, let zone) = read.due else { Issue.record("no timed due"); return }
        let expected = try #require(TimeZone(identifier: iana))
        #expect(zone.identifier == expected.identifier)
        #expect(instant == Calendar.nudge(zone: expected).date(from: DateComponents(year: 2026, month: 7, day: 1, hour: 9)))
    }

    /// Every Windows zone name against Debian's python3-tzlocal, whose table is CLDR's
    /// windowsZones too: each reads as a zone with the same offsets through 2026 and 2027.
    @Test func everyWindowsZoneNameAgreesWithTzlocal() throws {
        let oracle = try ChildProcess.run("/usr/bin/python3", ["-c", """
            import json, tzlocal.windows_tz
            print(json.dumps(tzlocal.windows_tz.win_tz))
            """], environment: ["PATH": "/usr/bin:/bin"])
        try #require(oracle.status == 0, "\(oracle.stderr)")
        let table = try #require(try JSONSerialization.jsonObject(with: Data(oracle.stdout.utf8)) as? [String: String])
        try #require(table.count > 100)
        let samples = (0..<48).map { Date(timeIntervalSince1970: 1_767_225_600 + Double($0) * 15.2 * 86_400) }
        // CLDR moved these after tzlocal 4.2's table (2022), when the zones it named changed
        // their offsets: Almaty to +05 in 2024, Chihuahua to -06 in 2022.
        let movedSince = ["Central Asia Standard Time": "Asia/Bishkek", "Mountain Standard Time (Mexico)": "America/Mazatlan"]
        for (windows, old) in table.sorted(by: { $0.key < $1.key }) {
            let iana = movedSince[windows] ?? old
            let read = try decodeOne(["DUE;TZID=\(windows):20260701T090000"])
            guard case .at(_, let zone)? = read.due, let expected = TimeZone(identifier: iana) else {
                Issue.record("\(windows): \(String(describing: read.due)), tzlocal says \(iana)")
                continue
            }
            #expect(samples.map(zone.secondsFromGMT) == samples.map(expected.secondsFromGMT), "\(windows): \(zone.identifier), tzlocal says \(iana)")
        }
    }

    /// A zone name no system knows (an app's own): the VTIMEZONE's offsets find one that agrees.
    @Test func mapsAVTimezoneWithoutASystemNameByItsOffsets() throws {
        let vtimezone = [
            "BEGIN:VTIMEZONE", "TZID:Central Europe (my phone)",
            "BEGIN:STANDARD", "DTSTART:16010101T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
            "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE",
        ]
        let file = try decode(calendar(vtimezone + todo(["DUE;TZID=Central Europe (my phone):20260701T090000"])))
        let read = try file.items[0].get()
        guard case .at(let instant, let zone) = read.due else { Issue.record("no timed due"); return }
        #expect(instant == Date(timeIntervalSince1970: 1_782_889_200)) // 07:00 UTC
        #expect(zone.secondsFromGMT(for: instant) == 7200)
        #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_798_099_200)) == 3600)
    }

    @Test func anUnknownZoneNamesTheTodoAndDue() throws {
        let file = try decode(calendar(todo(["DUE;TZID=Mars/Olympus:20261224T090000"])))
        #expect(throws: RecordError.self) { try file.items[0].get() }
        guard case .failure(let error) = file.items[0] else { return }
        #expect(error.field == "DUE")
        #expect(error.place == .todo)
        #expect(error.description.hasPrefix("todo 1: \"DUE\""))
    }

    @Test func badItemsNameTheTodoAndField() throws {
        let file = try decode(calendar(todo(["DUE;VALUE=DATE:20261224"]) + todo(["SUMMARY:  "])
                                       + ["BEGIN:VTODO", "UID:x", "END:VTODO"] + todo(["DUE:garbage"])))
        #expect(file.items.count == 4)
        #expect(throws: Never.self) { try file.items[0].get() }
        let errors = file.items.compactMap { if case .failure(let error) = $0 { error } else { nil } }
        #expect(errors.map(\.item) == [2, 3, 4])
        #expect(errors.map(\.field) == ["SUMMARY", "SUMMARY", "DUE"])
        #expect(file.places.map(\.place) == [.todo, .todo, .todo, .todo])
    }

    @Test func readsAlarmsAsOwnReminders() throws {
        let read = try decodeOne([
            "DUE:20261224T080000Z", "PRIORITY:1",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;RELATED=END:-PT10M", "END:VALARM",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;RELATED=END:-P1W", "END:VALARM",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;VALUE=DATE-TIME:20261224T060000Z", "END:VALARM",
            // Relative to DTSTART, and there is none: kept as it is.
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:-PT5M", "END:VALARM",
        ])
        #expect(read.custom == [.before(TimeSpan(seconds: 600)), .before(TimeSpan(days: 7)),
                                   .at(Date(timeIntervalSince1970: 1_798_092_000))])
        #expect(read.kept["ics"] == "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:x\nTRIGGER:-PT5M\nEND:VALARM\n")
        #expect(lines(encode([read])).contains("TRIGGER:-PT5M"))
    }

    @Test func readsAnAlarmRelativeToTheStartOfATodoThatDoesNotRepeatAsAMoment() throws {
        let read = try decodeOne([
            "DUE:20261224T080000Z", "DTSTART:20261220T080000Z",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;RELATED=START:-PT1H", "END:VALARM",
        ])
        #expect(read.custom == [.at(Date(timeIntervalSince1970: 1_798_099_200 - 4 * 86_400 - 3600))])
        #expect(read.kept["ics"]?.contains("DTSTART:20261220T080000Z") == true)
        let repeating = try decodeOne([
            "DUE:20261224T080000Z", "DTSTART:20261220T080000Z", "RRULE:FREQ=DAILY",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;RELATED=START:-PT1H", "END:VALARM",
        ])
        #expect(repeating.custom.isEmpty)
        #expect(repeating.kept["ics"]?.contains("TRIGGER;RELATED=START:-PT1H") == true)
    }

    @Test func readsAnRFC9074SnoozeAsSnoozedUntil() throws {
        let read = try decodeOne([
            "UID:\(uuid)", "DUE:20261224T080000Z", "PRIORITY:9",
            "BEGIN:VALARM", "UID:first", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;RELATED=END:-PT10M",
            "ACKNOWLEDGED:20261224T075000Z", "END:VALARM",
            "BEGIN:VALARM", "UID:second", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;VALUE=DATE-TIME:20261224T081500Z",
            "RELATED-TO;RELTYPE=SNOOZE:first", "END:VALARM",
        ])
        #expect(read.snoozedUntil == Date(timeIntervalSince1970: 1_798_100_100))
        #expect(read.custom == [.before(TimeSpan(seconds: 600))])
        #expect(read.kept.isEmpty)
    }

    @Test func keepsUnknownPropertiesVerbatimAndGivesThemBack() throws {
        let unknown = ["X-FOO;X-BAR=baz:qux", "X-FOO;PARAM=1:bar baz", "LOCATION;LANGUAGE=de;FOO=bar:Kitchen", "URL:https://example.com/a", "CLASS:PRIVATE",
                       "SEQUENCE:3", "ATTENDEE;CN=Ann:mailto:ann@example.com", "GEO:1.500000;2.500000"]
        let read = try decodeOne(unknown + ["CATEGORIES:Home", "CATEGORIES:Extra", "PRIORITY:5"])
        #expect(read.kept["ics"] == unknown.map { $0 + "\n" }.joined())
        #expect(read.tags == ["Extra"])
        let written = lines(encode([read]))
        for line in unknown + ["CATEGORIES:Home,Extra"] { #expect(written.contains(line)) }
    }

    /// libical reads a list of categories as one property each; they go back on one line, the
    /// todo's own first, as todoman can read them. One with parameters stays on its own.
    @Test func writesAllCategoriesOnOneLine() throws {
        let read = try decodeOne(["CATEGORIES:Home,Errands", "CATEGORIES:Later", "CATEGORIES;LANGUAGE=de:Einkauf"])
        #expect(read.category == "Home")
        let written = lines(encode([read])).filter { $0.hasPrefix("CATEGORIES") }
        #expect(written == ["CATEGORIES:Home,Errands,Later", "CATEGORIES;LANGUAGE=de:Einkauf"])
        #expect(try decodeOne(written).kept == read.kept)
    }

    /// A todo left without a category keeps its tags and the other categories it came with,
    /// marked so that the first of them does not become its category where Nudge reads them.
    @Test func aTodoWithoutACategoryWritesItsTagsAndSaysItHasNone() throws {
        var read = try decodeOne(["CATEGORIES:Home,Errands,Hot Stuff", "CATEGORIES;LANGUAGE=de:Einkauf"])
        read.category = nil
        let text = encode([read])
        #expect(lines(text).filter { $0.hasPrefix("CATEGORIES") } == ["CATEGORIES:Errands,Hot Stuff", "CATEGORIES;LANGUAGE=de:Einkauf"], "\(text)")
        #expect(lines(text).contains("X-NUDGE-NO-CATEGORY:TRUE"))
        let back = try decode(text).items[0].get()
        #expect(back.category == nil && back.tags == ["Errands"])
        #expect(back.kept["ics"].map { Set($0.split(separator: "\n")) } == read.kept["ics"].map { Set($0.split(separator: "\n")) })
        #expect(encode([back]) == text)
        // Given a category again, the mark is gone.
        var categorised = back
        categorised.category = "Home"
        #expect(!encode([categorised]).contains("X-NUDGE-NO-CATEGORY"))
        // Nothing to say, nothing written.
        let plain = encode([record { $0.tags = [] }])
        #expect(!plain.contains("CATEGORIES") && !plain.contains("X-NUDGE-NO-CATEGORY"))
    }

    @Test func theCategoryGoesFirstAndTheTagsAfterIt() throws {
        let text = encode([record { $0.category = "Home Office"; $0.tags = ["money", "日本語"] }])
        #expect(lines(text).filter { $0.hasPrefix("CATEGORIES") } == ["CATEGORIES:Home Office,money,日本語"])
        let back = try decode(text).items[0].get()
        #expect(back.category == "Home Office" && back.tags == ["money", "日本語"] && back.kept.isEmpty)
    }

    /// The shapes other programs write: Nextcloud Tasks (ical.js), tasks.org (ical4android),
    /// Thunderbird and todoman write a comma list on one line; Apple's and older clients one
    /// line each. All read alike: the first is the category, each other tag word a tag, and a
    /// value that is no tag word (a space, a dot) is kept and written back after the tags.
    @Test(arguments: [
        ["PRODID:-//Nextcloud Tasks v0.16.1", "CATEGORIES:Work,Urgent,q4-2026"],
        ["PRODID:+//IDN tasks.org//android-140100//EN", "CATEGORIES:Work,Urgent,q4-2026"],
        ["PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "CATEGORIES:Work,Urgent,q4-2026"],
        ["PRODID:-//Apple Inc.//iOS 17//EN", "CATEGORIES:Work", "CATEGORIES:Urgent", "CATEGORIES:q4-2026"],
        ["PRODID:-//todoman//EN", "CATEGORIES:Work,Urgent", "CATEGORIES:q4-2026"],
    ])
    func severalCategoriesAreTheCategoryAndTags(shape: [String]) throws {
        let body = ["UID:20261204T101010Z-4711@example.org", "SUMMARY:Quarterly report", "DTSTAMP:20261204T101010Z",
                    "CREATED:20261204T101010Z", "LAST-MODIFIED:20261204T101010Z", "STATUS:NEEDS-ACTION"] + shape.dropFirst()
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", shape[0], "BEGIN:VTODO"] + body + ["END:VTODO", "END:VCALENDAR"])
            .map { $0 + "\r\n" }.joined()
        let read = try decode(text).items[0].get()
        #expect(read.category == "Work")
        #expect(read.tags == ["Urgent", "q4-2026"])
        let written = encode([read])
        #expect(lines(written).filter { $0.hasPrefix("CATEGORIES") } == ["CATEGORIES:Work,Urgent,q4-2026"])
        #expect(try decode(written).items[0].get() == read)
    }

    @Test func categoriesThatAreNoTagWordsAreKeptAndGoBackAfterTheTags() throws {
        let read = try decodeOne(["CATEGORIES:Work,Hot Contacts,urgent,Mr. X,Urgent", "CATEGORIES;LANGUAGE=de:Einkauf"])
        #expect(read.category == "Work")
        // A second spelling of a tag is no second tag: it is kept as it came.
        #expect(read.tags == ["urgent"])
        #expect(read.kept["ics"]?.contains("CATEGORIES:Hot Contacts") == true)
        let written = lines(encode([read])).filter { $0.hasPrefix("CATEGORIES") }
        #expect(written == ["CATEGORIES:Work,urgent,Hot Contacts,Mr. X,Urgent", "CATEGORIES;LANGUAGE=de:Einkauf"])
        #expect(try decodeOne(written) == read)
    }

    /// libical split no value of `CATEGORIES:a\\b,t` (the tag became part of the category, whose
    /// backslashes doubled at each export), and wrote a comma within a name as a separator.
    @Test(arguments: [
        (#"CATEGORIES:a\\b,t"#, #"a\b"#, ["t"], ["CATEGORIES:a\\\\b,t"]),
        (#"CATEGORIES:Home\, Garden,diy,x\;y"#, "Home, Garden", ["diy"], [#"CATEGORIES:Home\, Garden,diy,x;y"#]),
        (#"CATEGORIES:Garden\, Home"#, "Garden, Home", [], [#"CATEGORIES:Garden\, Home"#]),
    ])
    func escapedCategoriesAreReadAndWrittenAsTheyWere(line: String, category: String, tags: [String], written: [String]) throws {
        let read = try decodeOne([line])
        #expect(read.category == category)
        #expect(read.tags == tags)
        let text = encode([read])
        #expect(lines(text).filter { $0.hasPrefix("CATEGORIES") } == written, "\(text)")
        let again = try decode(text).items[0].get()
        #expect(again.category == category && again.tags == tags)
        #expect(encode([again]) == text)
    }

    @Test func keepsAUIDThatIsNoUUIDAndFindsTheSameTodoAgain() throws {
        let read = try decodeOne(["UID:8f3a2b1c4d5e6f708192a3b4c5d6e7f8"])
        #expect(read.uuid == "8f3a2b1c-4d5e-6f70-8192-a3b4c5d6e7f8")
        #expect(lines(encode([read])).contains("UID:8f3a2b1c4d5e6f708192a3b4c5d6e7f8"))
        let other = try decodeOne(["UID:20261224-ab@example.com"])
        #expect(other.uuid == (try decodeOne(["UID:20261224-ab@example.com"])).uuid)
        #expect(UUID(uuidString: other.uuid) != nil)
        #expect(lines(encode([other])).contains("UID:20261224-ab@example.com"))
    }

    @Test func readsSeveralCalendarsOneAfterAnotherAndCountsWhatIsNotKept() throws {
        let text = calendar(todo(["UID:a1"]))
            + calendar(todo(["UID:a2", "SUMMARY:Second"]) + ["BEGIN:VEVENT", "UID:e", "SUMMARY:Party", "END:VEVENT"])
            + calendar(["BEGIN:VJOURNAL", "UID:j", "END:VJOURNAL"] + todo(["UID:a3", "SUMMARY:Third"]))
        let file = try decode(text)
        #expect(try file.items.map { try $0.get().title } == ["Buy milk", "Second", "Third"])
        #expect(file.notKept == ["events (not todos)": 1, "journal entries (not todos)": 1])
    }

    @Test func refusesAFileThatIsNotICalendar() {
        #expect(throws: InterchangeError(reason: "the file is not iCalendar: it does not start with BEGIN:VCALENDAR")) {
            try decode("hello\n")
        }
    }

    /// Some programs hand out one todo without its calendar: guessed as iCalendar, not read as
    /// four todo.txt lines, and refused by name.
    @Test func aBareVTodoIsGuessedAsICalendarAndRefusedByName() {
        let text = "\r\nBEGIN:VTODO\r\nUID:e\r\nSUMMARY:Bare\r\nEND:VTODO\r\n"
        #expect(InterchangeFormat.guess(Data(text.utf8)) == .ics)
        #expect(throws: InterchangeError(reason: "the file is not iCalendar: its VTODO is not inside a VCALENDAR"
                                         + " (an iCalendar file starts with BEGIN:VCALENDAR)")) {
            try decode(text)
        }
    }

    @Test(arguments: [
        ("BEGIN:VCALENDAR\nBEGIN:VTODO\n", 1),
        ("\u{FEFF}\r\nBEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:x\r\nEND:VTODO\r\n", 2),
        // libical reads the first and leaves the second out without a word.
        ("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nSUMMARY:x\nEND:VTODO\nEND:VCALENDAR\nbegin:vcalendar\nBEGIN:VTODO\nUID:b\n", 7),
    ])
    func aFileCutShortIsSaidToBe(text: String, line: Int) {
        #expect(throws: InterchangeError(reason: "the file is cut short: the VCALENDAR that begins on line \(line) has no END:VCALENDAR")) {
            try decode(text)
        }
    }

    // MARK: - Round trip

    @Test(arguments: [1, 2, 3, 42, 1234] as [UInt64])
    func randomTodosComeBackFieldByField(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let records = (0..<25).map { _ in Self.randomRecord(using: &random) }
        let file = try ICalendarFile.decode(Data(ICalendarFile.encode(records, options: options).utf8), options: options)
        try #require(file.items.count == records.count)
        for (record, item) in zip(records, file.items) {
            let read = try item.get()
            let differences = Self.differences(record, read)
            #expect(differences.isEmpty, "\(record.title): \(differences.joined(separator: "; "))")
        }
    }

    static let titles = ["Milch kaufen 🥛", "日本語のタスク", "commas, semicolons; colons: and \\ backslash",
                         "tab\tinside", "RTL שלום", "a very long title that is longer than seventy-five octets so libical folds it"]
    static let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC"]
    static let keptLines = ["X-FOO;X-BAR=baz:qux\n", "X-FOO;PARAM=1:bar baz\n", "LOCATION:Kitchen\\, left\n", "URL:https://example.com/a\n",
                            "CLASS:PRIVATE\n", "SEQUENCE:3\n"]

    static func randomRecord(using random: inout SplitMix64) -> TodoRecord {
        let uuid = UUID(uuid: (UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                               1, 2, 3, 4, 0x45, 6, 0x87, 8, 9, 10, 11, 12, UInt8.random(in: 0...255, using: &random), 14))
        let created = Date(timeIntervalSince1970: TimeInterval(Int.random(in: 1_700_000_000...1_800_000_000, using: &random)))
        var record = TodoRecord(uuid: uuid.uuidString.lowercased(), title: titles.randomElement(using: &random)!,
                                createdAt: created, updatedAt: created.addingTimeInterval(TimeInterval(Int.random(in: 0...99_999, using: &random))))
        if Bool.random(using: &random) { record.notes = "first line\nsecond, line; ⟨\(Int.random(in: 0...99, using: &random))⟩" }
        let day = LocalDate(year: 2027, month: Int.random(in: 1...12, using: &random), day: Int.random(in: 1...28, using: &random))!
        switch Int.random(in: 0...2, using: &random) {
        case 0: break
        case 1: record.due = .allDay(day)
        default:
            let zone = TimeZone(identifier: zones.randomElement(using: &random)!)!
            record.due = .at(day.at(hour: Int.random(in: 0...23, using: &random), minute: 15 * Int.random(in: 0...3, using: &random),
                                    in: .nudge(zone: zone)), zone: zone)
        }
        if let due = record.due, Bool.random(using: &random) {
            record.repetition = Repetition(rrule: ["FREQ=DAILY", "FREQ=WEEKLY;INTERVAL=2", "FREQ=MONTHLY;BYMONTHDAY=1,15"].randomElement(using: &random)!,
                                           from: Bool.random(using: &random) ? .due : .completion, start: SeriesStart(due))
        }
        record.priority = Priority.allCases.randomElement(using: &random)!
        record.category = [nil, "Home", "Work ✓", "Errands; shops"].randomElement(using: &random)!
        if Int.random(in: 0...3, using: &random) == 0 {
            record.completedAt = created.addingTimeInterval(TimeInterval(Int.random(in: 0...99_999, using: &random)))
        }
        if record.due != nil, Bool.random(using: &random) {
            record.custom = [.before(TimeSpan(seconds: 600)), .before(TimeSpan(days: 1)), .before(TimeSpan(days: 1, seconds: 9000))]
                .shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)) + []
        }
        if Bool.random(using: &random) {
            record.custom.append(.at(created.addingTimeInterval(TimeInterval(60 * Int.random(in: 1...9999, using: &random)))))
        }
        record.usesDefaultRules = Int.random(in: 0...3, using: &random) != 0
        if Int.random(in: 0...2, using: &random) == 0 {
            record.snoozedUntil = created.addingTimeInterval(TimeInterval(60 * Int.random(in: 1...9999, using: &random)))
        }
        var kept: [String] = []
        for line in keptLines where Bool.random(using: &random) { kept.append(line) }
        if !kept.isEmpty { record.kept = ["ics": kept.joined()] }
        return record
    }

    /// Every field of the records that differs, by name.
    static func differences(_ a: TodoRecord, _ b: TodoRecord) -> [String] {
        var differences: [String] = []
        func check<T: Equatable>(_ name: String, _ x: T, _ y: T) {
            if x != y { differences.append("\(name): \(x) != \(y)") }
        }
        check("uuid", a.uuid, b.uuid)
        check("title", a.title, b.title)
        check("notes", a.notes, b.notes)
        check("due", a.due.map { "\($0)" }, b.due.map { "\($0)" })
        check("priority", a.priority, b.priority)
        check("category", a.category, b.category)
        check("repetition", a.repetition, b.repetition)
        check("completedAt", a.completedAt, b.completedAt)
        check("createdAt", a.createdAt, b.createdAt)
        check("updatedAt", a.updatedAt, b.updatedAt)
        check("reminders", a.custom, b.custom)
        check("defaultReminders", a.usesDefaultRules, b.usesDefaultRules)
        check("snoozedUntil", a.snoozedUntil, b.snoozedUntil)
        check("kept", a.kept, b.kept)
        return differences
    }
}
