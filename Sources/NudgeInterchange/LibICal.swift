import CICal
import Foundation
import NudgeCore
import NudgeRecurrence

/// The thin layer over libical that the iCalendar format uses: components and properties as
/// libical's own pointers, times converted both ways, and text as libical prints it.
///
/// libical is NudgeRecurrence's (`LibICalLibrary`): every function here is called inside its
/// `withLock`, which its repeat rules take too. A component added to another belongs to it;
/// only roots are freed.
enum LibICal {
    typealias Component = OpaquePointer
    typealias Property = OpaquePointer

    // MARK: - Components

    /// Parses iCalendar text; several top-level components come back inside one XROOT.
    /// What libical cannot read whole is set aside first (see `ICalendarSetAside`): text
    /// printed from the result goes through `setAside.restore`.
    /// The caller frees the result with `icalcomponent_free`.
    /// The corresponding C function is `icalparser_parse_string`.
    static func parse(_ text: String, setAside: inout ICalendarSetAside) -> Component? {
        let bytes = setAside.prepare(text)
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { ical.icalparser_parse_string($0) }
            }
        }
    }

    /// The component's direct children of `kind` (`ICAL_ANY_COMPONENT` for all).
    static func children(of component: Component, _ kind: icalcomponent_kind = ICAL_ANY_COMPONENT) -> [Component] {
        walk(ical.icalcomponent_get_first_component(component, kind)) { ical.icalcomponent_get_next_component(component, kind) }
    }

    static func properties(of component: Component, _ kind: icalproperty_kind = ICAL_ANY_PROPERTY) -> [Property] {
        walk(ical.icalcomponent_get_first_property(component, kind)) { ical.icalcomponent_get_next_property(component, kind) }
    }

    /// libical's iteration: the first item, then each next one until NULL.
    private static func walk(_ first: OpaquePointer?, _ next: () -> OpaquePointer?) -> [OpaquePointer] {
        var result: [OpaquePointer] = []
        var item = first
        while let found = item {
            result.append(found)
            item = next()
        }
        return result
    }

    /// Moves every property and subcomponent of `source` to the end of `target`.
    static func moveContents(of source: Component, to target: Component) {
        for property in properties(of: source) {
            ical.icalcomponent_remove_property(source, property)
            ical.icalcomponent_add_property(target, property)
        }
        for child in children(of: source) {
            ical.icalcomponent_remove_component(source, child)
            ical.icalcomponent_add_component(target, child)
        }
    }

    /// The component as libical prints it: CRLF line endings, lines folded at 75 octets.
    /// The corresponding C function is `icalcomponent_as_ical_string_r`.
    static func text(ofComponent component: Component) -> String {
        guard let text = ical.icalcomponent_as_ical_string_r(component) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// A component a todo keeps, as its export writes it: without the X-LIC-ERROR properties
    /// libical added for what it could not read, which the next import would read back and
    /// add to again.
    static func keptText(ofComponent component: Component) -> String {
        guard let copy = ical.icalcomponent_new_clone(component) else { return "" }
        defer { ical.icalcomponent_free(copy) }
        ical.icalcomponent_strip_errors(copy)
        return text(ofComponent: copy)
    }

    /// The corresponding C function is `icalproperty_as_ical_string_r`.
    static func text(ofProperty property: Property) -> String {
        guard let text = ical.icalproperty_as_ical_string_r(property) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    // MARK: - Properties

    /// The property's name, `X-...` ones included.
    static func name(of property: Property) -> String {
        ical.icalproperty_get_property_name(property).map { String(cString: $0) } ?? ""
    }

    /// The value as written in the file, unescaped.
    /// The corresponding C function is `icalproperty_get_value_as_string_r`.
    static func value(of property: Property) -> String {
        guard let text = ical.icalproperty_get_value_as_string_r(property) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// A CATEGORIES value unescaped (`a\b` is `a\\b` in the file; `value(of:)` escapes it), and
    /// as it reads once written back: libical prints a value without its BS, FF and CR, so a
    /// name kept for holding one would be a tag at the next import (found by fuzzing).
    static func category(of property: Property) -> String {
        guard let value = ical.icalproperty_get_categories(property).map({ String(cString: $0) }) else { return "" }
        let dropped: Set<Unicode.Scalar> = ["\u{8}", "\u{C}", "\r"]
        guard value.unicodeScalars.contains(where: dropped.contains) else { return value }
        return String(String.UnicodeScalarView(value.unicodeScalars.filter { !dropped.contains($0) }))
    }

    /// A UID as it reads once written back: libical reads `UID:\(x` as " (x", writes that as
    /// "UID: (x", and reads that as "(x". The todo's uuid and its overrides' come from this one.
    static func uid(of property: Property) -> String {
        guard let again = self.property(text(ofProperty: property)) else { return "" }
        defer { ical.icalproperty_free(again) }
        return value(of: again)
    }

    /// A parameter's value by name, such as "TZID" or "RELTYPE".
    /// The corresponding C function is `icalproperty_get_parameter_as_string_r`.
    static func parameter(_ name: String, of property: Property) -> String? {
        guard let text = ical.icalproperty_get_parameter_as_string_r(property, name) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    /// A property from one content line, such as "RELATED-TO;RELTYPE=SNOOZE:abc".
    /// The corresponding C function is `icalproperty_new_from_string`.
    static func property(_ line: String) -> Property? {
        ical.icalproperty_new_from_string(line)
    }

    static func xProperty(_ name: String, _ value: String) -> Property {
        let property = ical.icalproperty_new_x(value)!  // nil only when malloc fails, as Swift's own allocations trap
        ical.icalproperty_set_x_name(property, name)
        return property
    }

    // MARK: - Times

    static var utc: OpaquePointer { ical.icaltimezone_get_utc_timezone()! }  // libical's static UTC zone, never nil

    /// An instant as a UTC DATE-TIME ("...Z"), whole seconds.
    static func utcTime(_ instant: Date) -> icaltimetype {
        ical.icaltime_from_timet_with_zone(time_t(instant.timeIntervalSince1970.rounded(.down)), 0, utc)
    }

    /// The last year libical's constructors (`icalproperty_new_due`...) take: past it,
    /// `icaltime_is_valid_time` fails and they write 00000000T000000, while its parser reads
    /// any year.
    static let lastYearMade = 3000

    /// A DATE or DATE-TIME property called `name`, made by `make`, or from its text after
    /// `lastYearMade`.
    static func timeProperty(_ name: String, _ value: icaltimetype, _ make: (icaltimetype) -> Property?) -> Property? {
        guard value.year > lastYearMade else { return make(value) }
        return property(name + ":" + timeText(value)) ?? make(value)
    }

    /// "60261215", "60261215T090000" or, in UTC, "60261215T090000Z".
    static func timeText(_ value: icaltimetype) -> String {
        var text = String(format: "%04d%02d%02d", value.year, value.month, value.day)
        if value.is_date == 0 {
            text += String(format: "T%02d%02d%02d", value.hour, value.minute, value.second)
            if ical.icaltime_is_utc(value) != 0 { text += "Z" }
        }
        return text
    }

    /// A wall-clock DATE-TIME, or a DATE when `time` is nil; floating (no zone).
    static func wallTime(day: LocalDate, time: (hour: Int, minute: Int, second: Int)?) -> icaltimetype {
        var value = ical.icaltime_null_time()
        value.year = Int32(day.year)
        value.month = Int32(day.month)
        value.day = Int32(day.day)
        if let time {
            value.hour = Int32(time.hour)
            value.minute = Int32(time.minute)
            value.second = Int32(time.second)
        } else {
            value.is_date = 1
        }
        return value
    }

    /// The day of a time libical read; nil for a day that does not exist (20261301).
    static func day(of value: icaltimetype) -> LocalDate? {
        LocalDate(year: Int(value.year), month: Int(value.month), day: Int(value.day))
    }

    /// The instant of a UTC time.
    static func instant(utc value: icaltimetype) -> Date {
        Date(timeIntervalSince1970: TimeInterval(ical.icaltime_as_timet_with_zone(value, utc)))
    }
}
