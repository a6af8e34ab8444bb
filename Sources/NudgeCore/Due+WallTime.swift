import Foundation

extension Due {
    /// `wallTime` when this is a timed due that a DST gap moved off it (02:30 on the night the
    /// clocks skip from 02:00 to 03:00 is 03:30), else nil: the time worth remembering, so that
    /// moving the due by days later brings the time typed back.
    public func wallTimeKept(_ wallTime: TimeOfDay?) -> TimeOfDay? {
        guard let wallTime, case .at(let instant, let zone) = self else { return nil }
        let clock = WallClock(zone: zone)
        let (day, hour, minute) = clock.dayAndTime(of: instant)
        guard TimeOfDay(hour: hour, minute: minute) != wallTime else { return nil }
        return SeriesStart.place(wallTime, on: day, in: zone) == instant ? wallTime : nil
    }

    /// The time of day of a timed due as meant: `kept` (a time a DST gap moved it off) when it
    /// still places this due, else the time the due shows.
    public func wallTime(keeping kept: TimeOfDay?) -> TimeOfDay? {
        guard case .at(let instant, let zone) = self else { return nil }
        if let kept, wallTimeKept(kept) != nil { return kept }
        let (hour, minute, _) = WallClock(zone: zone).time(of: instant)
        return TimeOfDay(hour: hour, minute: minute)
    }
}

extension Todo {
    /// Sets the due, remembering `wallTime` while a DST gap keeps the due off it.
    public mutating func setDue(_ new: Due?, meantFor wallTime: TimeOfDay?) {
        due = new
        dueWallTime = new?.wallTimeKept(wallTime)
    }
}
