import CICal
import Foundation
import NudgeCore
import NudgeRecurrence

/// One VTODO as a record: each property mapped to a field, or kept.
struct TodoReader {
    let todo: LibICal.Component
    let number: Int
    let timezones: [String: LibICal.Component]
    let options: InterchangeOptions
    /// Puts back the components libical could not keep, in the text kept.
    let setAside: ICalendarSetAside
    var notKept: [String: Int] = [:]
    /// What was read but will not work as it did where the todo came from.
    var warnings: [String] = []

    func error(_ field: String?, _ reason: String) -> RecordError {
        RecordError(item: number, place: .todo, field: field, reason: reason)
    }

    /// Fields whose unreadable values are the todo's error rather than a property left out.
    private static let mappedFields: Set<String> = [
        "UID", "SUMMARY", "DESCRIPTION", "DUE", "DTSTART", "PRIORITY", "STATUS", "COMPLETED", "CREATED",
        "LAST-MODIFIED", "DTSTAMP", "RRULE", "PERCENT-COMPLETE", "CATEGORIES",
    ]

    mutating func record() throws(RecordError) -> TodoRecord {
        // Kept in the file's order, wherever it is decided: an export then writes them as they
        // came, and its import keeps the same text.
        var kept: [(position: Int, text: String)] = []
        var positions: [LibICal.Property: Int] = [:]
        func keep(_ property: LibICal.Property) { kept.append((positions[property] ?? Int.max, LibICal.text(ofProperty: property))) }

        var uid: String?, title: String?, notes: String?, dueProperty: LibICal.Property?
        var startProperty: LibICal.Property?, rrule: (text: String, property: LibICal.Property)?
        var from: (RepeatFrom, LibICal.Property)?
        var priority = Priority.medium, category: String?, completed = false, completedAt: Date?
        var created: Date?, lastModified: Date?, stamp: Date?, defaultReminders = true
        var percentProperty: LibICal.Property?, sawPriority = false
        var cancelled = false, completedProperty: LibICal.Property?, durationProperty: LibICal.Property?
        var exdates: [LibICal.Property] = [], rdates: [LibICal.Property] = []
        var categories: [(name: String, property: LibICal.Property)] = [], noCategory = false
        var parentUUID: String?, after: [String] = []

        for (position, property) in LibICal.properties(of: todo).enumerated() {
            positions[property] = position
            let name = LibICal.name(of: property)
            switch ical.icalproperty_isa(property) {
            case ICAL_XLICERROR_PROPERTY:
                let text = LibICal.value(of: property)
                if let field = Self.mappedFields.first(where: { text.contains(" \($0) property") }) {
                    throw error(field, "cannot be read: " + text)
                }
                notKept["unreadable properties", default: 0] += 1
            case ICAL_UID_PROPERTY where uid == nil:
                let value = LibICal.uid(of: property)
                uid = value
                if value != ICalendarFile.uuid(forUID: value) { keep(property) }
            case ICAL_UID_PROPERTY:
                // A todo has one UID: the export writes the first.
                notKept["second UIDs of a todo", default: 0] += 1
            case ICAL_SUMMARY_PROPERTY where title == nil:
                title = ICalendarWriter.text(ical.icalproperty_get_summary(property).map { String(cString: $0) } ?? "")
            case ICAL_DESCRIPTION_PROPERTY where notes == nil:
                notes = ical.icalproperty_get_description(property).map { ICalendarWriter.text(String(cString: $0)) }
            case ICAL_DUE_PROPERTY where dueProperty == nil:
                dueProperty = property
            case ICAL_DTSTART_PROPERTY where startProperty == nil:
                startProperty = property
            case ICAL_DURATION_PROPERTY where durationProperty == nil:
                durationProperty = property
            case ICAL_RRULE_PROPERTY where rrule == nil:
                var rule = ical.icalproperty_get_rrule(property)
                if let text = ical.icalrecurrencetype_as_string_r(&rule) {
                    rrule = (String(cString: text), property)
                    free(text)
                } else {
                    throw error("RRULE", "cannot be read: " + LibICal.value(of: property))
                }
            case ICAL_PRIORITY_PROPERTY where !sawPriority:
                sawPriority = true
                let value = Int(ical.icalproperty_get_priority(property))
                priority = ICalendarFile.priority(value)
                if value != ICalendarFile.icalPriority(priority) { keep(property) }
            case ICAL_CATEGORIES_PROPERTY:
                // libical reads `CATEGORIES:Work,Urgent` as two properties, as it reads two lines.
                let name = ICalendarWriter.text(LibICal.category(of: property).trimmingWhitespace())
                if name.isEmpty { keep(property) } else { categories.append((name, property)) }
            case ICAL_X_PROPERTY where name == ICalendarFile.noCategoryName:
                noCategory = true
            case ICAL_STATUS_PROPERTY:
                switch ical.icalproperty_get_status(property) {
                case ICAL_STATUS_COMPLETED: completed = true
                case ICAL_STATUS_NEEDSACTION: break
                case ICAL_STATUS_CANCELLED:
                    // As Taskwarrior's `deleted`: done with (Nudge has no bin), so it is
                    // neither listed as pending nor reminded, and written back CANCELLED.
                    completed = true
                    cancelled = true
                    keep(property)
                default: keep(property)
                }
            case ICAL_COMPLETED_PROPERTY where completedAt == nil:
                completedAt = try instant(property, "COMPLETED")
                completedProperty = property
            case ICAL_PERCENTCOMPLETE_PROPERTY where percentProperty == nil:
                percentProperty = property
            case ICAL_CREATED_PROPERTY where created == nil:
                created = try instant(property, "CREATED")
            case ICAL_LASTMODIFIED_PROPERTY where lastModified == nil:
                lastModified = try instant(property, "LAST-MODIFIED")
            case ICAL_DTSTAMP_PROPERTY where stamp == nil:
                stamp = try instant(property, "DTSTAMP")
            case ICAL_X_PROPERTY where name == ICalendarFile.repeatFromName:
                from = (LibICal.value(of: property).uppercased() == "COMPLETION" ? .completion : .due, property)
            case ICAL_EXDATE_PROPERTY, ICAL_RDATE_PROPERTY:
                // Kept as they are, so that an export gives them back unchanged, and read into
                // the repetition below.
                if ical.icalproperty_isa(property) == ICAL_EXDATE_PROPERTY { exdates.append(property) } else { rdates.append(property) }
                keep(property)
            case ICAL_RELATEDTO_PROPERTY where parentUUID == nil && ICalendarFile.namesParent(property):
                // As the UID: a parent's UID that is not a uuid is kept, to be written back as it came.
                let value = LibICal.value(of: property)
                parentUUID = ICalendarFile.uuid(forUID: value)
                if value != parentUUID { keep(property) }
            case ICAL_RELATEDTO_PROPERTY where ICalendarFile.namesBlocker(property):
                // Kept when no uuid, as a parent's is.
                let value = LibICal.value(of: property)
                let blocker = ICalendarFile.uuid(forUID: value)
                if !after.contains(blocker) { after.append(blocker) }
                if value != blocker { keep(property) }
            case ICAL_X_PROPERTY where name == ICalendarFile.defaultRemindersName:
                defaultReminders = LibICal.value(of: property).uppercased() != "FALSE"
            default:
                keep(property)
            }
        }

        // The first category is the todo's category, the others its tags; one that is not a
        // tag word, or has parameters (LANGUAGE), is kept and written back after them.
        if !noCategory, let first = categories.first {
            category = first.name
            categories.removeFirst()
        }
        let plain = categories.filter { ical.icalproperty_count_parameters($0.property) == 0 }
        let tagged = InterchangeTags.isTag(plain.map(\.name))
        var tags: [String] = []
        for (candidate, isTag) in zip(plain, tagged) where isTag { tags.append(candidate.name) }
        let tagProperties = Set(zip(plain, tagged).filter(\.1).map(\.0.property))
        for candidate in categories where !tagProperties.contains(candidate.property) { keep(candidate.property) }

        guard let uid, !uid.isEmpty else { throw error("UID", "is missing: every VTODO needs one") }
        guard let title else { throw error("SUMMARY", "is missing") }
        let validTitle: String
        do { validTitle = try Todo.validatedTitle(title) } catch { throw self.error("SUMMARY", error.message) }

        var due = try dueProperty.map { property throws(RecordError) in try self.due(property) }
        if let dueProperty, case .at = due, ical.icaltime_is_utc(time(dueProperty)) == 0,
           LibICal.parameter("TZID", of: dueProperty) == nil {
            // Floating: Nudge's due is an instant in the zone it is read in; the marker has the
            // export write it floating again.
            let marker = LibICal.xProperty(ICalendarFile.floatingName, "TRUE")
            keep(marker)
            ical.icalproperty_free(marker)
        }
        if due == nil, let startProperty, let durationProperty, let end = try self.due(start: startProperty, plus: durationProperty) {
            // RFC 5545 3.6.2: without a DUE, the todo is due at DTSTART plus DURATION; the export
            // writes that DUE (a VTODO may not have both).
            due = end
        } else if let durationProperty {
            if due == nil, startProperty != nil {
                warnings.append("\"DURATION\" '\(LibICal.value(of: durationProperty))' is negative, so DTSTART plus it is no due:"
                                + " imported without a due (kept for export)")
            }
            keep(durationProperty)
        }
        var repetition: Repetition?
        var unfollowed: String?
        if let rrule {
            do throws(InputError) {
                if let due { try RepeatRule(parsing: "RRULE:" + rrule.text).check(for: due) } else { unfollowed = "has no due to repeat from" }
            } catch {
                unfollowed = due?.isAllDay == true && rrule.text.uppercased().contains("FREQ=HOURLY")
                    ? "repeats by hours, and the due is a day (at midnight)" : "is not a repeat nudge can follow"
            }
            if let unfollowed, !completed, completedAt == nil {
                warnings.append("\"RRULE\" '\(rrule.text)' \(unfollowed): imported without repeating (kept for export)")
            }
        }
        if let rrule, let due, unfollowed == nil {
            let start = try startProperty.map { property throws(RecordError) in try seriesStart(property, due: due) }
            // A PERIOD (RDATE;VALUE=PERIOD:...) has no DATE-TIME to read; it is only kept.
            func dates(_ properties: [LibICal.Property], _ field: String) throws(RecordError) -> [SeriesStart] {
                var dates: [SeriesStart] = []
                for property in properties where ical.icaltime_is_null_time(time(property)) == 0 {
                    dates.append(try seriesStart(property, due: due, field: field))
                }
                return dates
            }
            repetition = Repetition(rrule: rrule.text, from: from?.0 ?? .due, start: start,
                                    exceptions: try dates(exdates, "EXDATE"), additions: try dates(rdates, "RDATE"))
        } else {
            // Without a DUE to repeat from, more often than hourly, or hourly on a DATE: Nudge
            // cannot repeat it,
            // so the rule stays as it was.
            for property in [startProperty, rrule?.property, from?.1].compactMap({ $0 }) { keep(property) }
        }
        if !sawPriority, let undefined = ical.icalproperty_new_priority(0) {
            // No PRIORITY is RFC 5545's 0, undefined: kept so that an export of the unchanged
            // (medium) priority leaves it undefined again.
            keep(undefined)
            ical.icalproperty_free(undefined)
        }
        if cancelled {
            // A cancelled todo goes back as it came: COMPLETED and PERCENT-COMPLETE only when
            // it had them.
            completedAt = completedAt ?? lastModified ?? stamp ?? options.now
            for property in [completedProperty, percentProperty].compactMap({ $0 }) { keep(property) }
        } else if completed || completedAt != nil {
            completedAt = completedAt ?? lastModified ?? stamp ?? options.now
            if let percentProperty, ical.icalproperty_get_percentcomplete(percentProperty) != 100 { keep(percentProperty) }
        } else if let percentProperty {
            keep(percentProperty)
        }
        let updatedAt = lastModified ?? stamp ?? created ?? options.now
        let createdAt = created ?? stamp ?? lastModified ?? options.now

        // A DTSTART Nudge cannot place leaves the alarms relative to it kept.
        let startInstant = startProperty.flatMap { property in try? placed(time(property), property, "DTSTART")?.0 }
        var reminders: [CustomReminder] = []
        var snoozedUntil: Date?, remindedThrough: Date?
        for alarm in LibICal.children(of: todo) {
            // What libical could not read of an alarm is lost whatever Nudge does, and its
            // X-LIC-ERRORs are not written: the alarm is read, and any child kept, as what is
            // left, as the next import reads it.
            let unreadable = LibICal.properties(of: alarm, ICAL_XLICERROR_PROPERTY).count
            if unreadable > 0 {
                notKept["unreadable properties", default: 0] += unreadable
                ical.icalcomponent_strip_errors(alarm)
            }
            guard ical.icalcomponent_isa(alarm) == ICAL_VALARM_COMPONENT else {
                kept.append((Int.max, LibICal.text(ofComponent: alarm)))
                continue
            }
            let mapped = self.alarm(alarm, due: due, start: repetition == nil ? startInstant : nil,
                                    allDayTime: options.config.rules(priority: priority, category: category, tags: tags).allDayTime)
            switch mapped {
            case .reminder(let reminder):
                reminders.append(reminder)
                if let action = ical.icalcomponent_get_first_property(alarm, ICAL_ACTION_PROPERTY),
                   ical.icalproperty_get_action(action) == ICAL_ACTION_AUDIO {
                    let marker = LibICal.xProperty(ICalendarFile.audioName, reminder.description)
                    keep(marker)
                    ical.icalproperty_free(marker)
                }
            case .snooze(let until): snoozedUntil = max(snoozedUntil ?? until, until)
            case .standIn: break
            case .kept: kept.append((Int.max, LibICal.text(ofComponent: alarm)))
            }
            // RFC 9074: an alarm shown, answered or dismissed somewhere; for Nudge, its reminders
            // up to then are done with.
            if case .kept = mapped { continue }
            if let property = ical.icalcomponent_get_first_property(alarm, ICAL_ACKNOWLEDGED_PROPERTY) {
                let time = ical.icalproperty_get_acknowledged(property)
                if ical.icaltime_is_utc(time) != 0 {
                    let moment = LibICal.instant(utc: time)
                    remindedThrough = max(remindedThrough ?? moment, moment)
                }
            }
        }

        after.removeAll { $0 == ICalendarFile.uuid(forUID: uid) }
        guard after.count <= TodoRecord.maximumBlockers else {
            throw error("RELATED-TO", "names \(after.count) todos it depends on; at most \(TodoRecord.maximumBlockers) are allowed")
        }
        let inOrder = kept.enumerated().sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }
        let keptText = ICalendarSetAside.lfLines(setAside.restore(inOrder.map(\.element.text).joined()))
        let record = TodoRecord(uuid: ICalendarFile.uuid(forUID: uid), title: validTitle, notes: notes, due: due,
                                priority: priority, category: category, tags: tags, after: after, repetition: repetition,
                                completedAt: completedAt, createdAt: createdAt, updatedAt: updatedAt, reminders: reminders,
                                defaultReminders: defaultReminders, snoozedUntil: snoozedUntil,
                                kept: keptText.isEmpty ? [:] : [ICalendarFile.keptKey: keptText],
                                remindedThrough: remindedThrough,
                                parentUUID: parentUUID == ICalendarFile.uuid(forUID: uid) ? nil : parentUUID)
        // A time in a zone far from UTC can be in year 1 there and year 0 in UTC.
        if let field = YearBounds.fieldOutside(record) {
            throw error(Self.propertyNames[field] ?? field, "is outside the years 0001-9999")
        }
        return record
    }

    /// The property each field of a record is read from.
    private static let propertyNames = [
        "due": "DUE", "createdAt": "CREATED", "updatedAt": "LAST-MODIFIED", "completedAt": "COMPLETED",
        "snoozedUntil": "TRIGGER", "remindedThrough": "ACKNOWLEDGED", "reminders": "TRIGGER", "repeat": "DTSTART",
    ]

    // MARK: - Alarms

    enum Alarm {
        case reminder(CustomReminder)
        case snooze(Date)
        /// The alarm an export adds for Nudge's default reminders.
        case standIn
        case kept
    }

    /// Properties of a VALARM that a reminder stands for; with any other the alarm is kept.
    private static let reminderProperties: Set<String> = [
        "ACTION", "DESCRIPTION", "SUMMARY", "TRIGGER", "UID", "ACKNOWLEDGED", "X-WR-ALARMUID",
    ]

    /// `start` is DTSTART's instant when the todo does not repeat: an alarm relative to it
    /// is then at a moment. `allDayTime`: when the todo's rules fire an all-day due.
    func alarm(_ alarm: LibICal.Component, due: Due?, start: Date?, allDayTime: TimeOfDay) -> Alarm {
        let properties = LibICal.properties(of: alarm)
        let names = properties.map(LibICal.name)
        if names.contains(ICalendarFile.standsForName) { return .standIn }
        guard let triggerProperty = ical.icalcomponent_get_first_property(alarm, ICAL_TRIGGER_PROPERTY) else { return .kept }
        let trigger = ical.icalproperty_get_trigger(triggerProperty)
        let related = LibICal.parameter("RELATED", of: triggerProperty)?.uppercased() ?? "START"
        var moment: Date?
        if ical.icaltime_is_null_time(trigger.time) == 0 {
            let time = trigger.time
            if ical.icaltime_is_utc(time) != 0 {
                moment = LibICal.instant(utc: time)
            } else if let day = LibICal.day(of: time) {
                moment = day.at(hour: Int(time.hour), minute: Int(time.minute), second: Int(time.second),
                                in: .nudge(zone: options.zone))
            }
        }
        let isSnooze = properties.contains {
            ical.icalproperty_isa($0) == ICAL_RELATEDTO_PROPERTY && LibICal.parameter("RELTYPE", of: $0)?.uppercased() == "SNOOZE"
        }
        if isSnooze {
            if let moment { return .snooze(moment) }
            return .kept
        }
        guard names.allSatisfy(Self.reminderProperties.contains),
              let action = ical.icalcomponent_get_first_property(alarm, ICAL_ACTION_PROPERTY),
              [ICAL_ACTION_DISPLAY, ICAL_ACTION_AUDIO].contains(ical.icalproperty_get_action(action)) else { return .kept }
        if let moment { return .reminder(.at(moment)) }
        // Nudge's own reminder before an all-day due, written relative to the day's start.
        if related == "END", due != nil, let text = LibICal.parameter(ICalendarFile.beforeName, of: triggerProperty),
           let span = try? TimeSpan(parsing: text), span != TimeSpan() {
            return .reminder(.before(span))
        }
        let duration = trigger.duration
        let seconds = Int(duration.hours) * 3600 + Int(duration.minutes) * 60 + Int(duration.seconds)
        let span = TimeSpan(days: Int(duration.weeks) * 7 + Int(duration.days), seconds: seconds)
        guard seconds % 60 == 0 else { return .kept }
        if related == "START" {
            // Relative to DTSTART (the default): a moment when the todo has one start, else
            // Nudge has nothing to measure from.
            guard let start else { return .kept }
            let signed = duration.is_neg != 0 ? TimeSpan(days: -span.days, seconds: -span.seconds) : span
            return .reminder(.at(signed.added(to: start, calendar: .nudge(zone: options.zone))))
        }
        guard related == "END", let due else { return .kept }
        if case .allDay = due {
            // A DATE DUE is the start of its day, as the export writes it: the trigger is a
            // moment of that day or around it, the reminder the time from it to the all-day time.
            let offset = (span.days * 86_400 + span.seconds) * (duration.is_neg != 0 ? -1 : 1)
            let before = allDayTime.hour * 3600 + allDayTime.minute * 60 - offset
            // At or after the all-day time: Nudge has no reminder after a due; kept as it came.
            guard before > 0 else { return .kept }
            return .reminder(.before(TimeSpan(days: before / 86_400, seconds: before % 86_400)))
        }
        guard duration.is_neg != 0, span.days > 0 || span.seconds > 0 else { return .kept }
        return .reminder(.before(span))
    }
}
