import CICal
import Foundation
import NudgeCore
import NudgeRecurrence

/// Builds the VCALENDAR of an export with libical; called inside `LibICalLibrary.withLock`. libical's
/// constructors (`icalcomponent_new`, `icalproperty_new_*`) return nil only when malloc fails,
/// which Swift's own allocations treat as fatal too: so they are unwrapped with `!` here.
struct ICalendarWriter {
    let options: InterchangeOptions

    /// The zones used so far, by TZID, in order of first use, each with libical's built-in zone
    /// and the earliest day written in it.
    private var zones: [(tzid: String, zone: OpaquePointer, earliest: LocalDate?)] = []
    /// The kept components libical cannot print, put back in the text at the end.
    private var setAside = ICalendarSetAside()
    /// Whether a CATEGORIES value holds `commaInName`, to be written `\,` at the end.
    private var commaInCategory = false
    /// The UIDs of the linked todos whose files spell them otherwise than their uuids, by uuid.
    private(set) var uids: [String: String] = [:]

    init(options: InterchangeOptions) {
        self.options = options
    }

    mutating func calendar(_ records: [TodoRecord]) -> String {
        let calendar = ical.icalcomponent_new(ICAL_VCALENDAR_COMPONENT)!
        defer { ical.icalcomponent_free(calendar) }
        ical.icalcomponent_add_property(calendar, ical.icalproperty_new_prodid(ICalendarFile.prodID))
        ical.icalcomponent_add_property(calendar, ical.icalproperty_new_version("2.0"))
        uids = linkedUIDs(records)
        let todos = records.flatMap { [todo($0)] + overrides(of: $0) }
        for (tzid, zone, earliest) in zones {
            guard let builtin = ical.icaltimezone_get_component(zone),
                  let vtimezone = ical.icalcomponent_new_clone(builtin) else { continue }
            // The zone's rules from the year before the earliest time in it, not its history
            // since 1893; from libical's last year at the latest, which it can write.
            if let earliest, let start = LocalDate(year: min(max(earliest.year - 1, 1), LibICal.lastYearMade), month: 1, day: 1) {
                ical.icaltimezone_truncate_vtimezone(vtimezone, LibICal.utcTime(start.start(in: .nudge(zone: ICalendarFile.utc))),
                                                ical.icaltime_null_time(), 0)
            }
            // libical names its zones "/freeassociation.sourceforge.net/Europe/Berlin"; other
            // programs look the plain name up.
            if let property = ical.icalcomponent_get_first_property(vtimezone, ICAL_TZID_PROPERTY) {
                ical.icalproperty_set_tzid(property, tzid)
            }
            ical.icalcomponent_add_component(calendar, vtimezone)
        }
        for todo in todos { ical.icalcomponent_add_component(calendar, todo) }
        // What libical could not read in the kept text it says in X-LIC-ERRORs of its own,
        // which the next import would read back beside new ones.
        ical.icalcomponent_strip_errors(calendar)
        let text = LibICal.text(ofComponent: calendar)
        return setAside.restore(commaInCategory ? Self.categoryCommasEscaped(text) : text)
    }

    /// The overrides of occurrences kept with a repeating todo (RECURRENCE-ID), as they were
    /// read; the zones they name get their VTIMEZONEs, as the todo's own do.
    private mutating func overrides(of record: TodoRecord) -> [LibICal.Component] {
        guard let text = record.kept[ICalendarFile.overridesKey], !text.isEmpty,
              let calendar = LibICal.parse("BEGIN:VCALENDAR\r\n" + text + (text.hasSuffix("\n") ? "" : "\r\n") + "END:VCALENDAR\r\n",
                                           setAside: &setAside)
        else { return [] }
        defer { ical.icalcomponent_free(calendar) }
        var found: [LibICal.Component] = []
        for todo in LibICal.children(of: calendar, ICAL_VTODO_COMPONENT) {
            ical.icalcomponent_remove_component(calendar, todo)
            for property in LibICal.properties(of: todo) {
                if let name = LibICal.parameter("TZID", of: property), let zone = TimeZone(identifier: name) { _ = tzid(zone) }
            }
            found.append(todo)
        }
        return found
    }

    /// The TZID a due in `zone` is written with, nil for UTC and for zones libical does not
    /// have (those are written in UTC).
    private mutating func tzid(_ zone: TimeZone) -> String? {
        if ICalendarFile.isUTC(zone) { return nil }
        let name = zone.identifier
        if zones.contains(where: { $0.tzid == name }) { return name }
        guard let builtin = ical.icaltimezone_get_builtin_timezone(name) else { return nil }
        zones.append((name, builtin, nil))
        return name
    }

    /// A DATE, a DATE-TIME with TZID, or a UTC one, for DUE and DTSTART.
    private mutating func timeProperty(_ name: String, _ make: (icaltimetype) -> LibICal.Property?, day: LocalDate,
                                       time: (hour: Int, minute: Int, second: Int)?, zone: TimeZone?) -> LibICal.Property {
        let value = LibICal.wallTime(day: day, time: time)
        guard time != nil, let zone, let tzid = tzid(zone) else { return LibICal.timeProperty(name, value, make)! }
        if let index = zones.firstIndex(where: { $0.tzid == tzid }) {
            zones[index].earliest = min(zones[index].earliest ?? day, day)
        }
        let property = LibICal.timeProperty(name, value, make)!
        ical.icalproperty_add_parameter(property, ical.icalparameter_new_tzid(tzid))
        return property
    }

    /// `floating`: a DATE-TIME without TZID, the wall-clock time in the due's zone.
    private mutating func due(_ due: Due, floating: Bool = false) -> LibICal.Property {
        switch due {
        case .allDay(let day):
            return timeProperty("DUE", ical.icalproperty_new_due, day: day, time: nil, zone: nil)
        case .at(let instant, let zone) where floating:
            let clock = WallClock(zone: zone)
            return timeProperty("DUE", ical.icalproperty_new_due, day: clock.day(of: instant), time: clock.time(of: instant), zone: nil)
        case .at(let instant, let zone):
            guard tzid(zone) != nil else { return LibICal.timeProperty("DUE", LibICal.utcTime(instant), ical.icalproperty_new_due)! }
            let clock = WallClock(zone: zone)
            return timeProperty("DUE", ical.icalproperty_new_due, day: clock.day(of: instant), time: clock.time(of: instant), zone: zone)
        }
    }

    /// DTSTART for a repeating todo: the series' wall-clock start in the due's zone.
    private mutating func start(_ start: SeriesStart, due: Due, floating: Bool = false) -> LibICal.Property {
        seriesDate("DTSTART", ical.icalproperty_new_dtstart, start, due: due, floating: floating)
    }

    /// A date of a series (DTSTART, EXDATE): its wall-clock time in the due's zone, or a day.
    private mutating func seriesDate(_ name: String, _ make: (icaltimetype) -> LibICal.Property?, _ start: SeriesStart,
                                     due: Due, floating: Bool) -> LibICal.Property {
        guard let time = start.time, case .at(_, let zone) = due else {
            return timeProperty(name, make, day: start.day, time: nil, zone: nil)
        }
        if floating {
            return timeProperty(name, make, day: start.day, time: (time.hour, time.minute, 0), zone: nil)
        }
        if tzid(zone) == nil {
            // UTC, or a zone libical does not know: the wall-clock start placed, in UTC.
            let instant = start.day.at(hour: time.hour, minute: time.minute, in: .nudge(zone: zone))
            return LibICal.timeProperty(name, LibICal.utcTime(instant), make)!
        }
        return timeProperty(name, make, day: start.day, time: (time.hour, time.minute, 0), zone: zone)
    }

    private mutating func todo(_ record: TodoRecord) -> LibICal.Component {
        let todo = ical.icalcomponent_new(ICAL_VTODO_COMPONENT)!
        let kept = Kept(record.kept[ICalendarFile.keptKey], setAside: &setAside)
        defer { kept.free() }
        func add(_ property: LibICal.Property?) {
            if let property { ical.icalcomponent_add_property(todo, property) }
        }

        let keptUID = kept.takeFirst(ICAL_UID_PROPERTY)
        if let keptUID, ICalendarFile.uuid(forUID: LibICal.uid(of: keptUID)) == record.uuid {
            add(keptUID)
        } else {
            keptUID.map { ical.icalproperty_free($0) }
            add(ical.icalproperty_new_uid(record.uuid))
        }
        // Without a METHOD, DTSTAMP is when the todo was last changed (RFC 5545 3.8.7.2), not
        // when it was written out: exporting twice gives the same file.
        add(LibICal.timeProperty("DTSTAMP", LibICal.utcTime(record.updatedAt), ical.icalproperty_new_dtstamp))
        add(LibICal.timeProperty("CREATED", LibICal.utcTime(record.createdAt), ical.icalproperty_new_created))
        add(LibICal.timeProperty("LAST-MODIFIED", LibICal.utcTime(record.updatedAt), ical.icalproperty_new_lastmodified))
        add(ical.icalproperty_new_summary(Self.text(record.title)))
        if let notes = record.notes { add(ical.icalproperty_new_description(Self.text(notes))) }
        let floating = kept.takeX(named: ICalendarFile.floatingName)
        if let due = record.due { add(self.due(due, floating: floating)) }
        if let repetition = record.repetition {
            if let due = record.due {
                kept.take(ICAL_DTSTART_PROPERTY).forEach { ical.icalproperty_free($0) }
                add(start(repetition.start ?? SeriesStart(due), due: due, floating: floating))
            }
            // The property takes the rule, its RSCALE text included.
            add(ical.icalproperty_new_rrule(ical.icalrecurrencetype_from_string(repetition.rrule)))
            // EXDATEs read from a file go back as they came; the others (nudge skip) are
            // written as DTSTART is.
            let keptExceptions = kept.take(ICAL_EXDATE_PROPERTY)
            let keptTexts = Set(keptExceptions.map(LibICal.text(ofProperty:)))
            keptExceptions.forEach(add)
            if let due = record.due {
                var written: Set<SeriesStart> = []
                for date in repetition.exceptions where written.insert(date).inserted {
                    let property = seriesDate("EXDATE", ical.icalproperty_new_exdate, date, due: due, floating: floating)
                    if keptTexts.contains(LibICal.text(ofProperty: property)) { ical.icalproperty_free(property) } else { add(property) }
                }
            }
            if repetition.from == .completion { add(LibICal.xProperty(ICalendarFile.repeatFromName, "COMPLETION")) }
        }

        // A kept PRIORITY (2, or 0) is given back while it still means the record's priority.
        let keptPriority = kept.takeFirst(ICAL_PRIORITY_PROPERTY)
        if let keptPriority, ICalendarFile.priority(Int(ical.icalproperty_get_priority(keptPriority))) == record.priority {
            add(keptPriority)
        } else {
            keptPriority.map { ical.icalproperty_free($0) }
            add(ical.icalproperty_new_priority(Int32(ICalendarFile.icalPriority(record.priority))))
        }
        let categories = categories(record.category, tags: record.tags ?? [], kept: kept)
        commaInCategory = commaInCategory || categories.commaInName
        add(categories.line)
        if categories.noCategory { add(LibICal.xProperty(ICalendarFile.noCategoryName, "TRUE")) }

        let keptStatus = kept.takeFirst(ICAL_STATUS_PROPERTY)
        let keptPercent = kept.takeFirst(ICAL_PERCENTCOMPLETE_PROPERTY)
        // Kept only with a CANCELLED status, which it goes back with.
        let keptCompleted = kept.takeFirst(ICAL_COMPLETED_PROPERTY)
        let keptStatusValue = keptStatus.map { ical.icalproperty_get_status($0) }
        if record.completedAt != nil, keptStatusValue == ICAL_STATUS_CANCELLED {
            // Imported cancelled (Nudge keeps it as done): cancelled again, as it came.
            [keptStatus, keptCompleted, keptPercent].forEach(add)
        } else if let completedAt = record.completedAt {
            [keptStatus, keptPercent, keptCompleted].compactMap { $0 }.forEach { ical.icalproperty_free($0) }
            add(ical.icalproperty_new_status(ICAL_STATUS_COMPLETED))
            add(LibICal.timeProperty("COMPLETED", LibICal.utcTime(completedAt), ical.icalproperty_new_completed))
            add(ical.icalproperty_new_percentcomplete(100))
        } else {
            keptCompleted.map { ical.icalproperty_free($0) }
            // Cancelled, then reopened in Nudge: pending again, not cancelled.
            let reopened = keptStatusValue == ICAL_STATUS_CANCELLED || keptStatusValue == ICAL_STATUS_COMPLETED
            if let keptStatus, !reopened {
                add(keptStatus)
            } else {
                keptStatus.map { ical.icalproperty_free($0) }
                add(ical.icalproperty_new_status(ICAL_STATUS_NEEDSACTION))
            }
            if reopened { keptPercent.map { ical.icalproperty_free($0) } } else { add(keptPercent) }
        }
        if !record.usesDefaultRules { add(LibICal.xProperty(ICalendarFile.defaultRemindersName, "FALSE")) }
        // The DEPENDS-ONs set apart first: parent() frees the RELATED-TOs it does not write.
        var blockersKept: [LibICal.Property] = []
        for property in kept.take(ICAL_RELATEDTO_PROPERTY) {
            if ICalendarFile.namesBlocker(property) { blockersKept.append(property) } else { kept.putBack(property) }
        }
        parent(record.parentUUID, kept: kept).map(add)
        blockers(record.after, kept: blockersKept).forEach(add)

        alarms(record, audible: Set(kept.takeXValues(named: ICalendarFile.audioName)), into: todo)
        kept.move(to: todo)
        return todo
    }

    /// A VALARM for each of the todo's own reminders, and the RFC 9074 snooze; with
    /// `remindedThrough`, each carries it as ACKNOWLEDGED, and a pending todo with a due and
    /// only the default reminders gets the alarm that stands for them, to carry it. `audible`:
    /// the reminders (as `CustomReminder.description` writes them) whose alarm came as AUDIO.
    private func alarms(_ record: TodoRecord, audible: Set<String>, into todo: LibICal.Component) {
        let acknowledged = record.remindedThrough
        var alarms: [(uid: String, alarm: LibICal.Component)] = []
        for (index, reminder) in record.custom.enumerated() {
            var trigger = icaltriggertype(time: ical.icaltime_null_time(), duration: ical.icaldurationtype_null_duration())
            var related = false
            switch reminder {
            case .before(let span):
                trigger.duration = duration(before: span)
                related = true
            case .at(let moment):
                trigger.time = LibICal.utcTime(moment)
            }
            let uid = "\(record.uuid)-reminder-\(index + 1)"
            var triggerProperty: LibICal.Property?
            if case .before(let span) = reminder, case .allDay = record.due {
                triggerProperty = allDayTrigger(before: span, record)
            }
            let own = alarm(uid: uid, trigger: triggerProperty ?? triggerLine(trigger, relatedToEnd: related),
                            audible: audible.contains(reminder.description), description: record.title)
            if let acknowledged { ical.icalcomponent_add_property(own, Self.acknowledged(acknowledged)) }
            alarms.append((uid, own))
        }
        let carriesAcknowledged = acknowledged != nil && record.usesDefaultRules && record.due != nil && record.completedAt == nil
        if record.snoozedUntil != nil || carriesAcknowledged {
            if alarms.isEmpty {
                // Nudge snoozes its default reminders too: an alarm at the due stands for them.
                var trigger = icaltriggertype(time: ical.icaltime_null_time(), duration: ical.icaldurationtype_null_duration())
                if record.due == nil, let snoozedUntil = record.snoozedUntil { trigger.time = LibICal.utcTime(snoozedUntil) }
                let uid = "\(record.uuid)-default"
                var triggerProperty: LibICal.Property?
                if case .allDay = record.due { triggerProperty = allDayTrigger(before: TimeSpan(), record) }
                let stand = alarm(uid: uid, trigger: triggerProperty ?? triggerLine(trigger, relatedToEnd: record.due != nil),
                                  audible: false, description: record.title)
                ical.icalcomponent_add_property(stand, LibICal.xProperty(ICalendarFile.standsForName, "DEFAULT-REMINDERS"))
                if let acknowledged {
                    ical.icalcomponent_add_property(stand, Self.acknowledged(acknowledged))
                }
                alarms.append((uid, stand))
            }
        }
        if let snoozedUntil = record.snoozedUntil {
            let snoozed = alarms[0]
            if acknowledged == nil {
                ical.icalcomponent_add_property(snoozed.alarm, Self.acknowledged(options.now))
            }
            let trigger = icaltriggertype(time: LibICal.utcTime(snoozedUntil), duration: ical.icaldurationtype_null_duration())
            let snooze = alarm(uid: "\(record.uuid)-snooze", trigger: triggerLine(trigger, relatedToEnd: false), audible: false,
                               description: record.title)
            if let related = LibICal.property("RELATED-TO;RELTYPE=SNOOZE:\(snoozed.uid)") {
                ical.icalcomponent_add_property(snooze, related)
            }
            alarms.append(("", snooze))
        }
        for (_, alarm) in alarms { ical.icalcomponent_add_component(todo, alarm) }
    }

    private static func acknowledged(_ moment: Date) -> LibICal.Property? {
        LibICal.timeProperty("ACKNOWLEDGED", LibICal.utcTime(moment), ical.icalproperty_new_acknowledged)
    }

    /// `audible`: ACTION:AUDIO (RFC 5545 gives it no DESCRIPTION), else DISPLAY.
    private func alarm(uid: String, trigger: LibICal.Property, audible: Bool, description: String) -> LibICal.Component {
        let alarm = ical.icalcomponent_new(ICAL_VALARM_COMPONENT)!
        ical.icalcomponent_add_property(alarm, ical.icalproperty_new_uid(uid))
        ical.icalcomponent_add_property(alarm, ical.icalproperty_new_action(audible ? ICAL_ACTION_AUDIO : ICAL_ACTION_DISPLAY))
        if !audible { ical.icalcomponent_add_property(alarm, ical.icalproperty_new_description(Self.text(description))) }
        ical.icalcomponent_add_property(alarm, trigger)
        return alarm
    }

    private func triggerLine(_ trigger: icaltriggertype, relatedToEnd: Bool) -> LibICal.Property {
        // As `LibICal.timeProperty`: a moment after the year 3000 goes as text.
        if trigger.time.year > LibICal.lastYearMade,
           let property = LibICal.property("TRIGGER;VALUE=DATE-TIME:" + LibICal.timeText(trigger.time)) {
            return property
        }
        let property = ical.icalproperty_new_trigger(trigger)!
        // RELATED=END: for a VTODO, relative to DUE.
        if relatedToEnd { ical.icalproperty_add_parameter(property, ical.icalparameter_new_related(ICAL_RELATED_END)) }
        return property
    }

    /// A reminder `span` before an all-day due: Nudge fires it `span` before the due day's
    /// `all_day_time` (by the record's rules), while a DATE DUE is, for other programs, the
    /// start of the day. So the trigger is that moment relative to the start of the day, and
    /// X-NUDGE-BEFORE keeps the span for Nudge to read back.
    private func allDayTrigger(before span: TimeSpan, _ record: TodoRecord) -> LibICal.Property? {
        let time = options.config.rules(priority: record.priority, category: record.category, tags: record.tags ?? []).allDayTime
        let offset = time.hour * 3600 + time.minute * 60 - span.days * 86_400 - span.seconds
        let magnitude = abs(offset)
        var text = (offset < 0 ? "-P" : "P") + (magnitude >= 86_400 ? "\(magnitude / 86_400)D" : "")
        let rest = magnitude % 86_400
        if rest > 0 || magnitude == 0 {
            text += "T\(rest / 3600)H\(rest / 60 % 60)M"
        }
        let parameter = span == TimeSpan() ? "" : ";\(ICalendarFile.beforeName)=\(span)"
        return LibICal.property("TRIGGER;RELATED=END\(parameter):\(text)")
    }

    /// A TEXT value as RFC 5545 allows it: no control characters but HTAB (a newline, which
    /// libical writes as `\n`, and CRLF stay newlines); each other C0 character, DEL and each
    /// C1 character is written as U+FFFD.
    static func text(_ value: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 && scalar != "\t" && scalar != "\n" || (0x7F...0x9F).contains(scalar.value)
        }
        guard value.unicodeScalars.contains(where: isControl) else { return value }
        var result = String.UnicodeScalarView()
        let scalars = Array(value.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let crlf = scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
            result.append(isControl(scalar) && !crlf ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

    /// "-P1DT2H30M": days stay days and hours stay hours, so "1d" and "24h" remain different.
    private func duration(before span: TimeSpan) -> icaldurationtype {
        var duration = ical.icaldurationtype_null_duration()
        let negative = span.days > 0 || (span.days == 0 && span.seconds > 0)
        duration.is_neg = negative ? 1 : 0
        let days = abs(span.days), seconds = abs(span.seconds)
        duration.days = UInt32(days)
        duration.hours = UInt32(seconds / 3600)
        duration.minutes = UInt32(seconds / 60 % 60)
        duration.seconds = UInt32(seconds % 60)
        return duration
    }
}

/// A record's kept content lines, parsed back by libical so the writer can take the ones it
/// decides on (PRIORITY, STATUS, UID) and move the rest into the VTODO.
struct Kept {
    let component: LibICal.Component?

    init(_ text: String?, setAside: inout ICalendarSetAside) {
        guard let text, !text.isEmpty else {
            component = nil
            return
        }
        component = LibICal.parse("BEGIN:VTODO\r\n" + text + (text.hasSuffix("\n") ? "" : "\r\n") + "END:VTODO\r\n",
                                  setAside: &setAside)
    }

    /// Removes the properties of `kind` and hands them over, to be added or freed.
    func take(_ kind: icalproperty_kind) -> [LibICal.Property] {
        guard let component else { return [] }
        let found = LibICal.properties(of: component, kind)
        for property in found { ical.icalcomponent_remove_property(component, property) }
        return found
    }

    /// Removes the properties of `kind` and hands over the first; the others are freed (a
    /// todo read with two PRIORITYs keeps the second, which the export does not write).
    func takeFirst(_ kind: icalproperty_kind) -> LibICal.Property? {
        let found = take(kind)
        found.dropFirst().forEach { ical.icalproperty_free($0) }
        return found.first
    }

    /// Gives back a property taken, to be moved into the VTODO with the rest.
    func putBack(_ property: LibICal.Property) {
        if let component { ical.icalcomponent_add_property(component, property) }
    }

    /// Removes the X-properties called `name`; whether there were any.
    func takeX(named name: String) -> Bool {
        guard let component else { return false }
        let found = LibICal.properties(of: component, ICAL_X_PROPERTY).filter { LibICal.name(of: $0) == name }
        for property in found {
            ical.icalcomponent_remove_property(component, property)
            ical.icalproperty_free(property)
        }
        return !found.isEmpty
    }

    /// Removes the X-properties called `name`; their values.
    func takeXValues(named name: String) -> [String] {
        guard let component else { return [] }
        let found = LibICal.properties(of: component, ICAL_X_PROPERTY).filter { LibICal.name(of: $0) == name }
        defer {
            for property in found {
                ical.icalcomponent_remove_property(component, property)
                ical.icalproperty_free(property)
            }
        }
        return found.map(LibICal.value)
    }

    func move(to todo: LibICal.Component) {
        guard let component else { return }
        LibICal.moveContents(of: component, to: todo)
    }

    func free() {
        if let component { ical.icalcomponent_free(component) }
    }
}
