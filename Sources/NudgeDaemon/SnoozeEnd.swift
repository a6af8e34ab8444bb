import Foundation
import NudgeCore

/// When a snooze choice ends, read as of one moment: the moment a notification is written
/// (which choices it offers) or the moment a button is pressed (what it does).
struct SnoozeEnd {
    let now: Date
    let zone: TimeZone
    let style: DateStyle
    /// Where a choice naming only a day ("fri") ends on it.
    let allDayTime: TimeOfDay

    /// The end of `choice`, or nil when that is not after `now`: "tonight" (20:00) read at
    /// 21:00, or a date that has passed. Such a snooze would hold nothing, yet replace the
    /// reminders it was meant to bring back, as `nudge snooze --until` refuses to. Nil too
    /// past the year 9999, where no reminder can come back.
    func end(of choice: SnoozeChoice) -> Date? {
        let calendar = Calendar.nudge(zone: zone)
        let end: Date
        switch choice {
        case .span(let span):
            end = span.added(to: now, calendar: calendar)
        case .when(let text):
            switch try? WhenParser(now: now, calendar: calendar, style: style).parse(text) {
            case .at(let instant, _)?:
                end = instant
            case .allDay(let day)?:
                end = day.at(hour: allDayTime.hour, minute: allDayTime.minute, in: calendar)
            case nil:
                return nil
            }
        }
        return end > now && WallClock(zone: zone).isWithinYears(end) ? end : nil
    }
}
