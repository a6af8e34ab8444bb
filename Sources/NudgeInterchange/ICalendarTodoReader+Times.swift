import CICal
import Foundation
import NudgeCore
import NudgeRecurrence

extension TodoReader {
    /// A time property's value: a DATE, or a DATE-TIME in UTC, with a TZID, or floating.
    func time(_ property: LibICal.Property) -> icaltimetype {
        let value = ical.icalproperty_get_value(property)
        return value.map { ical.icalvalue_get_datetime($0) } ?? ical.icaltime_null_time()
    }

    /// A UTC (or floating, then in `options.zone`) DATE-TIME such as COMPLETED or CREATED.
    func instant(_ property: LibICal.Property, _ field: String) throws(RecordError) -> Date {
        let value = time(property)
        guard let (instant, _) = try placed(value, property, field) else {
            throw error(field, "is a date without a time: '\(LibICal.value(of: property))'")
        }
        return instant
    }

    func due(_ property: LibICal.Property) throws(RecordError) -> Due {
        let value = time(property)
        guard let day = LibICal.day(of: value) else {
            throw error("DUE", "is not a date: '\(LibICal.value(of: property))'")
        }
        if value.is_date != 0 { return .allDay(day) }
        let (instant, zone) = try placed(value, property, "DUE")!  // non-nil: not a DATE, checked above
        return .at(instant, zone: zone)
    }

    /// DTSTART plus DURATION: days and weeks as calendar days in DTSTART's zone, the rest exact
    /// (RFC 5545 3.3.6); an all-day due when both are whole days. Nil for a negative duration.
    func due(start property: LibICal.Property, plus durationProperty: LibICal.Property) throws(RecordError) -> Due? {
        let duration = ical.icalproperty_get_duration(durationProperty)
        guard duration.is_neg == 0 else { return nil }
        guard let due = try due(start: property, plus: duration), YearBounds.contains(due) else {
            // Not libical's value: it wraps weeks past 2^32.
            throw error("DURATION", "added to DTSTART '\(LibICal.value(of: property))' puts the due outside the years 0001-9999")
        }
        return due
    }

    private func due(start property: LibICal.Property, plus duration: icaldurationtype) throws(RecordError) -> Due? {
        let span = TimeSpan(days: Int(duration.weeks) * 7 + Int(duration.days),
                            seconds: Int(duration.hours) * 3600 + Int(duration.minutes) * 60 + Int(duration.seconds))
        let value = time(property)
        guard let day = LibICal.day(of: value) else {
            throw error("DTSTART", "is not a date: '\(LibICal.value(of: property))'")
        }
        if value.is_date != 0 {
            if span.seconds == 0 { return .allDay(day.adding(days: span.days)) }
            let calendar = Calendar.nudge(zone: options.zone)
            return .at(span.added(to: day.start(in: calendar), calendar: calendar), zone: options.zone)
        }
        let (instant, zone) = try placed(value, property, "DTSTART")!  // non-nil: not a DATE, checked above
        return .at(span.added(to: instant, calendar: .nudge(zone: zone)), zone: zone)
    }

    /// The series' wall-clock start: DTSTART's day and time as the due's zone reads them. So
    /// also an EXDATE or RDATE (`field`).
    func seriesStart(_ property: LibICal.Property, due: Due, field: String = "DTSTART") throws(RecordError) -> SeriesStart {
        let value = time(property)
        guard let day = LibICal.day(of: value) else {
            throw error(field, "is not a date: '\(LibICal.value(of: property))'")
        }
        if value.is_date != 0 { return SeriesStart(day: day, time: nil) }
        guard case .at(_, let dueZone) = due else { return SeriesStart(day: day, time: nil) }
        let tzid = LibICal.parameter("TZID", of: property)
        let wall = TimeOfDay(hour: Int(value.hour), minute: Int(value.minute))
        if ical.icaltime_is_utc(value) == 0, let wall, let tzid, let zone = systemZone(tzid), zone.identifier == dueZone.identifier {
            return SeriesStart(day: day, time: wall)
        }
        let (instant, _) = try placed(value, property, field)!  // non-nil: not a DATE, checked above
        return SeriesStart(.at(instant, zone: dueZone))
    }

    /// The instant of a DATE-TIME and the zone it was given in; nil for a DATE.
    func placed(_ value: icaltimetype, _ property: LibICal.Property,
                        _ field: String) throws(RecordError) -> (Date, TimeZone)? {
        guard let day = LibICal.day(of: value) else {
            throw error(field, "is not a date: '\(LibICal.value(of: property))'")
        }
        if value.is_date != 0 { return nil }
        if ical.icaltime_is_utc(value) != 0 { return (LibICal.instant(utc: value), ICalendarFile.utc) }
        // Through LocalDate, which is proleptic Gregorian before 1582 as RFC 5545 is
        // (Foundation's calendar is Julian there: the day moved at every round trip).
        func placed(in zone: TimeZone) -> (Date, TimeZone) {
            (day.at(hour: Int(value.hour), minute: Int(value.minute), second: Int(value.second), in: .nudge(zone: zone)), zone)
        }
        guard let tzid = LibICal.parameter("TZID", of: property) else { return placed(in: options.zone) }
        if let zone = systemZone(tzid) {
            // An abbreviation Foundation takes for a zone ("ART", Buenos Aires) has no rules in
            // libical by that name and is written as UTC: so it is read, at the same instant
            // (found by fuzzing).
            let (instant, _) = placed(in: zone)
            let unnamed = TimeZone.abbreviationDictionary[zone.identifier] != nil
                && ical.icaltimezone_get_builtin_timezone(zone.identifier) == nil && !ICalendarFile.isUTC(zone)
            return (instant, unnamed ? ICalendarFile.utc : zone)
        }
        guard let vtimezone = timezones[tzid] else {
            throw error(field, "has the time zone '\(tzid)', which is neither in the file (VTIMEZONE) nor known to this system")
        }
        guard let (instant, zone) = fileZone(vtimezone, value) else {
            throw error(field, "has the time zone '\(tzid)', whose VTIMEZONE matches no zone this system knows")
        }
        return (instant, zone)
    }

    /// A system zone for a TZID: the name itself, a Windows name (Outlook's), or its end after
    /// a prefix such as libical's "/freeassociation.sourceforge.net/Europe/Berlin".
    private func systemZone(_ tzid: String) -> TimeZone? {
        if let zone = TimeZone(identifier: tzid) ?? WindowsZone.zone(forWindowsID: tzid) { return zone }
        var parts = tzid.split(separator: "/")
        while parts.count > 1 {
            parts.removeFirst()
            if let zone = TimeZone(identifier: parts.joined(separator: "/")) { return zone }
        }
        if let vtimezone = timezones[tzid],
           let location = LibICal.properties(of: vtimezone).first(where: { LibICal.name(of: $0) == "X-LIC-LOCATION" }) {
            return TimeZone(identifier: LibICal.value(of: location))
        }
        return nil
    }

    /// A wall-clock time in a VTIMEZONE of the file that has no system name (one an app made
    /// up): the instant by libical, and the first system zone whose offsets agree
    /// with the VTIMEZONE's over the year around it.
    private func fileZone(_ vtimezone: LibICal.Component, _ value: icaltimetype) -> (Date, TimeZone)? {
        guard let zone = ical.icaltimezone_new() else { return nil }
        defer { ical.icaltimezone_free(zone, 1) }
        guard let copy = ical.icalcomponent_new_clone(vtimezone), ical.icaltimezone_set_component(zone, copy) != 0 else { return nil }
        let instant = Date(timeIntervalSince1970: TimeInterval(ical.icaltime_as_timet_with_zone(value, zone)))
        let samples = (0..<24).map { instant.addingTimeInterval(TimeInterval($0 - 12) * 30 * 86_400) }
        let offsets = samples.map { sample -> Int in
            var utc = LibICal.utcTime(sample)
            var isDaylight: Int32 = 0
            return Int(ical.icaltimezone_get_utc_offset_of_utc_time(zone, &utc, &isDaylight))
        }
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            guard let candidate = TimeZone(identifier: identifier),
                  zip(samples, offsets).allSatisfy({ candidate.secondsFromGMT(for: $0) == $1 }) else { continue }
            return (instant, candidate)
        }
        return nil
    }
}
