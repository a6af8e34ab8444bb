import Foundation
import NudgeCore

/// A property that failed: a finding, with what was seen.
func violated(_ property: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("property violated: \(property)", file: file, line: line)
}

func check(_ condition: Bool, _ property: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    if !condition { violated(property(), file: file, line: line) }
}

/// The fixed moment and zones the targets read in: nothing here may depend on the real clock.
enum Fixed {
    static let now = Date(timeIntervalSince1970: 1_796_126_400)  // 2026-12-01T12:00:00Z
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let zones: [TimeZone] = [berlin, TimeZone(identifier: "UTC")!, TimeZone(identifier: "Pacific/Kiritimati")!,
                                    TimeZone(identifier: "America/St_Johns")!]
}

/// 0001-01-01T00:00:00 and the end of 9999-12-31 as wall times read in UTC.
private let firstMoment = -62_135_596_800.0
private let endMoment = 253_402_300_800.0

/// Whether `date`, read in `zone`, is a wall time in the years 0001-9999.
func isInYears(_ date: Date, zone: TimeZone) -> Bool {
    let seconds = date.timeIntervalSince1970
    guard seconds.isFinite, seconds > firstMoment - 86_400, seconds < endMoment + 86_400 else { return false }
    let wall = seconds + Double(zone.secondsFromGMT(for: date))
    return wall >= firstMoment && wall < endMoment
}

func checkInYears(_ date: Date?, zone: TimeZone, _ what: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    guard let date else { return }
    check(isInYears(date, zone: zone), "\(what()) \(date.timeIntervalSince1970) lies outside the years 0001-9999", file: file, line: line)
}

func checkInYears(_ due: Due?, _ what: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    switch due {
    case nil: return
    case .allDay(let day)?:
        check((1...9999).contains(day.year), "\(what()) \(day) lies outside the years 0001-9999", file: file, line: line)
    case .at(let instant, let zone)?:
        checkInYears(instant, zone: zone, what(), file: file, line: line)
    }
}

/// Every date a record carries lies in 0001-9999.
func checkInYears(_ record: TodoRecord, file: StaticString = #file, line: UInt = #line) {
    let zone = TimeZone(identifier: "UTC")!
    checkInYears(record.due, "due of \(record.uuid)", file: file, line: line)
    checkInYears(record.completedAt, zone: zone, "completion of \(record.uuid)", file: file, line: line)
    checkInYears(record.createdAt, zone: zone, "creation of \(record.uuid)", file: file, line: line)
    checkInYears(record.updatedAt, zone: zone, "change of \(record.uuid)", file: file, line: line)
    checkInYears(record.snoozedUntil, zone: zone, "snooze of \(record.uuid)", file: file, line: line)
    checkInYears(record.remindedThrough, zone: zone, "acknowledgement of \(record.uuid)", file: file, line: line)
    for start in [record.repetition?.start].compactMap({ $0 }) + (record.repetition?.exceptions ?? []) + (record.repetition?.additions ?? []) {
        check((1...9999).contains(start.day.year), "a series date of \(record.uuid), \(start), lies outside the years 0001-9999",
              file: file, line: line)
    }
}
