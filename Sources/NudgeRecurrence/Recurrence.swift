import CICal
import Foundation
import NudgeCore
import NudgePlatform

/// The thin layer over libical's RRULE parser and icalrecur iterator. Every call into libical
/// goes through `LibICalLibrary`'s lock, so the rest of Nudge may use repeat rules from any thread.
enum Recurrence {
    /// The most occurrences looked at for one answer. Reaching it counts as "no next occurrence",
    /// so no rule (an exhausted COUNT, an UNTIL in the past, a rule that never matches) can make
    /// `nextDue` loop for long.
    static let maximumSteps = 10_000

    /// The largest number a rule may hold (COUNT, INTERVAL, ...). libical keeps them in 32-bit
    /// and 16-bit fields that wrap (COUNT=4294967297 would be 1); and a COUNT above
    /// `maximumSteps` could not be counted out.
    static let largestNumber = maximumSteps

    enum Problem: Error, Equatable {
        /// libical cannot read the rule.
        case unreadable
        /// The rule repeats more often than hourly (FREQ=SECONDLY or MINUTELY).
        case subHourly(frequency: String)
        /// A BYMINUTE or BYSECOND of several values: several occurrences within an hour.
        case withinAnHour(part: String)
        /// A number above `largestNumber`, in this part of the rule.
        case tooLarge(part: String)
        /// An UNTIL that is not a date (and time) in the years 0001-9999.
        case badUntil(part: String)
        /// No day of any year matches the rule.
        case neverOccurs
        /// A BYSETPOS that libical would apply to the wrong set: with BYWEEKNO (which Nudge
        /// applies after libical) in a MONTHLY or YEARLY rule, or with several BYHOUR values
        /// (libical picks days, or nothing, not times).
        case unsupportedPositions(reason: String)
        /// libical could not be opened.
        case noLibrary(LibraryLoadError)
    }

    /// Checks an RRULE value (without the "RRULE:" prefix) and returns it as libical writes it
    /// back (icalrecurrencetype_as_string_r), e.g. "freq=weekly;interval=2" -> "FREQ=WEEKLY;INTERVAL=2".
    static func canonical(_ value: String) throws(Problem) -> String {
        let parts = value.split(separator: ";").map { part in
            (name: part.prefix(while: { $0 != "=" }).uppercased(), part: String(part))
        }
        for (name, part) in parts where name != "UNTIL" {
            let numbers = part.split(whereSeparator: { !$0.isASCII || !$0.isNumber })
            if numbers.contains(where: { Int($0.drop(while: { $0 == "0" }).prefix(6)) ?? 0 > largestNumber }) {
                throw .tooLarge(part: part)
            }
            if name == "BYMINUTE" || name == "BYSECOND", Set(numbers).count > 1 { throw .withinAnHour(part: part) }
        }
        let result: Result<String, Problem>
        do throws(LibraryLoadError) { result = try LibICalLibrary.withLock { () -> Result<String, Problem> in
            ical.icalerror_clear_errno()
            var rule = ical.icalrecurrencetype_from_string(value)
            defer { free(rule.rscale) }
            switch rule.freq {
            case ICAL_NO_RECURRENCE:
                return .failure(.unreadable)
            case ICAL_SECONDLY_RECURRENCE, ICAL_MINUTELY_RECURRENCE:
                return .failure(.subHourly(frequency: ical.icalrecur_freq_to_string(rule.freq).map { String(cString: $0) } ?? "?"))
            default:
                if let until = parts.first(where: { $0.name == "UNTIL" })?.part,
                   ical.icaltime_is_null_time(rule.until) != 0 || FloatingTime(rule.until) == nil {
                    return .failure(.badUntil(part: until))
                }
                guard let text = ical.icalrecurrencetype_as_string_r(&rule) else { return .failure(.unreadable) }
                defer { free(text) }
                return .success(String(cString: text))
            }
        } } catch {
            throw .noLibrary(error)
        }
        let rule = try result.get()
        guard DayFilter(rrule: rule).letsSomeDayThrough else { throw .neverOccurs }
        let names = Dictionary(rule.split(separator: ";").map { part in
            (part.prefix(while: { $0 != "=" }), part.drop(while: { $0 != "=" }).dropFirst())
        }, uniquingKeysWith: { first, _ in first })
        if names["BYSETPOS"] != nil {
            let frequency = names["FREQ"] ?? ""
            if names["BYWEEKNO"] != nil, frequency == "MONTHLY" || frequency == "YEARLY" {
                throw .unsupportedPositions(reason: "BYSETPOS with BYWEEKNO in a \(frequency) rule is not supported; drop one of them")
            }
            if frequency != "HOURLY", let hours = names["BYHOUR"], hours.contains(",") {
                throw .unsupportedPositions(reason: "BYSETPOS with several BYHOUR values is not supported; give one BYHOUR, or drop BYSETPOS")
            }
        }
        return rule
    }

    /// What an expansion does after looking at one occurrence.
    enum Step<T> {
        /// Look at the next occurrence.
        case next
        /// Stop with this answer.
        case found(T)
        /// Stop without one: the series has ended.
        case end
    }

    /// The UNTIL of `rrule` when it is in UTC ("...Z"), as the instant it names; nil without
    /// UNTIL, or with a floating or DATE one (those are wall-clock times).
    static func utcUntil(of rrule: String) -> Date? {
        let until: FloatingTime? = LibICalLibrary.withOpenLock {
            let rule = ical.icalrecurrencetype_from_string(rrule)
            defer { free(rule.rscale) }
            guard rule.until.is_date == 0, ical.icaltime_is_utc(rule.until) != 0 else { return nil }
            return FloatingTime(rule.until)
        }
        guard let until else { return nil }
        let days = LocalDate(year: 1970, month: 1, day: 1)!.days(until: until.day)
        let seconds = ((days * 24 + until.hour) * 60 + until.minute) * 60 + until.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// How an expansion ended.
    enum Search<T> {
        case found(T)
        /// The series ended, `body` ended it, or `maximumSteps` occurrences were seen.
        case ended
        /// Nothing was found before the horizon (see `horizonDays`).
        case beyondHorizon
    }

    /// How many days past its start (or the day it is searched from) an expansion looks, by
    /// FREQ; a next occurrence further away counts as none. libical's iterator steps through
    /// every candidate hour or day until one matches or the year 2582 is passed: for a rule
    /// that matches nothing, seconds of stepping. Given as UNTIL, which that loop checks, these
    /// keep a search short. (libical's MONTHLY loop does not check UNTIL, so a monthly rule
    /// that matches nothing still steps to the year 2582; `DayFilter` keeps that to rules
    /// libical alone cannot expand.) YEARLY steps are cheap.
    static func horizonDays(_ frequency: icalrecurrencetype_frequency) -> Int? {
        switch frequency {
        case ICAL_HOURLY_RECURRENCE: 2 * 366
        case ICAL_DAILY_RECURRENCE: 40 * 366
        case ICAL_WEEKLY_RECURRENCE: 60 * 366
        case ICAL_MONTHLY_RECURRENCE: 80 * 366
        default: nil
        }
    }

    /// How many days a DAILY or HOURLY rule with parts picking days is searched, day by day,
    /// past the later of its start and `from` (`searchByDay`): testing a day costs little, so
    /// this reaches rules that occur once in 28 years (February 29 on a Sunday).
    static let dayByDayHorizon = 60 * 366

    /// Runs libical's iterator for `rrule` with DTSTART = `start` (floating: no zone) and hands
    /// each occurrence, in order, to `body` until `body` stops, the series ends, `maximumSteps`
    /// occurrences have been seen, or the horizon (`horizonDays` past the later of `start` and
    /// `from`) is passed. The first occurrence is normally DTSTART itself. Occurrences on days
    /// before `from` may be left out: `body` must not need them.
    /// With `ignoringUntil` the rule's UNTIL is left to `body` (libical would compare a UTC
    /// UNTIL with the floating occurrences as if they were UTC).
    static func first<T>(in rrule: String, start: FloatingTime, from: FloatingTime? = nil, ignoringUntil: Bool = false,
                         where body: (FloatingTime) -> Step<T>) -> T? {
        if case .found(let answer) = search(rrule, start: start, from: from, ignoringUntil: ignoringUntil, where: body) {
            return answer
        }
        return nil
    }

    /// `first`, saying whether the horizon ended the search.
    static func search<T>(_ rrule: String, start: FloatingTime, from: FloatingTime? = nil, ignoringUntil: Bool = false,
                          where body: (FloatingTime) -> Step<T>) -> Search<T> {
        LibICalLibrary.withOpenLock {
            var rule = ical.icalrecurrencetype_from_string(rrule)
            defer { free(rule.rscale) }
            if ignoringUntil { rule.until = ical.icaltime_null_time() }
            everyMonth(&rule)
            if rule.freq == ICAL_DAILY_RECURRENCE || rule.freq == ICAL_HOURLY_RECURRENCE,
               let passes = DayFilter(rrule: rrule).dayTest {
                return searchByDay(&rule, passes: passes, start: start, from: from, where: body)
            }
            if let passes = weeksAsDays(&rule, start: start) {
                return searchByDay(&rule, passes: passes, start: start, from: from, where: body)
            }
            let start = movedForward(start, near: from, rule)
            var limited = false
            if let days = horizonDays(rule.freq) {
                var last = max(start, from ?? start)
                last.day = last.day.adding(days: days)
                if FloatingTime(rule.until).map({ last < $0 }) ?? true {
                    rule.until = last.icalTime
                    limited = true
                }
            }
            let limit = Limit(taking: &rule)
            guard rule.freq != ICAL_NO_RECURRENCE, !skipsEveryMonth(rule, from: start),
                  let iterator = ical.icalrecur_iterator_new(rule, start.icalTime) else { return .ended }
            defer { ical.icalrecur_iterator_free(iterator) }
            var passed = 0, seen = 0
            for _ in 0..<maximumSteps {
                guard let occurrence = FloatingTime(ical.icalrecur_iterator_next(iterator)) else {
                    let counted = rule.count > 0 && seen >= Int(rule.count)
                    return !limited || counted ? .ended : .beyondHorizon
                }
                seen += 1
                if let limit {
                    guard limit.passes(occurrence) else { continue }
                    passed += 1
                    if limit.count > 0, passed > limit.count { return .ended }
                }
                switch body(occurrence) {
                case .next: continue
                case .found(let answer): return .found(answer)
                case .end: return .ended
                }
            }
            return .ended
        }
    }

    /// A DAILY or HOURLY rule with parts picking days (BYMONTH, BYMONTHDAY, BYYEARDAY, BYDAY,
    /// BYWEEKNO), searched a day at a time: `passes` tells the days those parts let through, and
    /// libical's iterator is run only over runs of such days (DTSTART on the run's first step,
    /// UNTIL at the end of its last day). libical alone steps through every hour or day
    /// between two occurrences: for FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=SU, 28 years of
    /// hours. COUNT, which counts from DTSTART, is counted here.
    private static func searchByDay<T>(_ rule: inout icalrecurrencetype, passes: (LocalDate) -> Bool, start: FloatingTime,
                                       from: FloatingTime?, where body: (FloatingTime) -> Step<T>) -> Search<T> {
        let until = FloatingTime(rule.until)
        let limit = Limit(taking: &rule)
        let count = limit?.count ?? Int(rule.count)
        rule.count = 0
        let hourly = rule.freq == ICAL_HOURLY_RECURRENCE
        let interval = max(1, Int(rule.interval))
        let hasHours = rule.by_hour.0 != Int16(truncatingIfNeeded: ICAL_RECURRENCE_ARRAY_MAX.rawValue)
        // COUNT counts the occurrences from the series' start, so those before `from` are looked at.
        var day = count > 0 ? start.day : max(start.day, from?.day ?? start.day)
        let lastDay = day.adding(days: dayByDayHorizon)
        var passed = 0, seen = 0

        /// The first step of the series on `day`, if one falls on it: DTSTART itself on its
        /// own day; otherwise the step time for DAILY (midnight with BYHOUR, whose hours
        /// libical adds), the first INTERVAL hour of the day for HOURLY.
        func firstStep(on day: LocalDate) -> FloatingTime? {
            let offset = start.day.days(until: day)
            if offset == 0 { return start }
            guard offset > 0 else { return nil }
            if !hourly {
                guard offset % interval == 0 else { return nil }
                var step = start
                step.day = day
                if hasHours, !start.isDate { step.hour = 0 }
                return step
            }
            let hoursToDay = offset * 24 - start.hour
            let hour = start.hour + (hoursToDay + interval - 1) / interval * interval
            guard hour < (offset + 1) * 24 else { return nil }
            return FloatingTime(day: day, hour: hour % 24, minute: start.minute, second: start.second)
        }

        while day <= lastDay {
            if let until, day > until.day { return .ended }
            guard passes(day), let first = firstStep(on: day) else {
                guard day.year < 9999 else { return .ended }
                day = day.adding(days: 1)
                continue
            }
            // The run: the following days that pass too (a week at most, so that a rule
            // matching most days still asks little of one iterator).
            var end = day
            while end.days(until: lastDay) > 0, day.days(until: end) < 7, end.year < 9999, passes(end.adding(days: 1)) {
                end = end.adding(days: 1)
            }
            var last = start.isDate ? FloatingTime.date(end) : FloatingTime(day: end, hour: 23, minute: 59, second: 59)
            if let until, until < last { last = until }
            var run = rule
            run.until = last.icalTime
            guard let iterator = ical.icalrecur_iterator_new(run, first.icalTime) else { return .ended }
            defer { ical.icalrecur_iterator_free(iterator) }
            while let occurrence = FloatingTime(ical.icalrecur_iterator_next(iterator)) {
                seen += 1
                if seen > maximumSteps { return .ended }
                if let limit, !limit.passes(occurrence) { continue }
                passed += 1
                if count > 0, passed > count { return .ended }
                switch body(occurrence) {
                case .next: continue
                case .found(let answer): return .found(answer)
                case .end: return .ended
                }
            }
            guard end.year < 9999 else { return .ended }
            day = end.adding(days: 1)
        }
        return .beyondHorizon
    }

    /// A YEARLY, MONTHLY or WEEKLY rule whose only part picking days is BYWEEKNO (every day of
    /// those weeks, in its BYMONTH) made the DAILY rule it amounts to, with the days it lets
    /// through: those of its weeks and months, in the periods its INTERVAL steps on from
    /// `start`. libical expanded every day of each period to find them (FREQ=YEARLY;BYWEEKNO=-53,
    /// week 1 of years with 53 weeks, took 170 ms for a first due). Nil for other rules.
    private static func weeksAsDays(_ rule: inout icalrecurrencetype, start: FloatingTime) -> ((LocalDate) -> Bool)? {
        guard [ICAL_YEARLY_RECURRENCE, ICAL_MONTHLY_RECURRENCE, ICAL_WEEKLY_RECURRENCE].contains(rule.freq),
              let weeks = Limit.weekNumbers(of: rule), Limit.values(rule.by_day).isEmpty, Limit.values(rule.by_month_day).isEmpty,
              Limit.values(rule.by_year_day).isEmpty, Limit.values(rule.by_set_pos).isEmpty else { return nil }
        let months = Set(Limit.values(rule.by_month))
        let interval = max(1, Int(rule.interval))
        let first = start.day
        let inPeriod: (LocalDate) -> Bool
        switch rule.freq {
        case ICAL_YEARLY_RECURRENCE:
            inPeriod = { day in (day.year - first.year) % interval == 0 }
        case ICAL_MONTHLY_RECURRENCE:
            inPeriod = { day in ((day.year - first.year) * 12 + day.month - first.month) % interval == 0 }
        default:
            let weekStart = Limit.isoWeekStart(of: rule)
            let intoWeek = (first.isoWeekday - weekStart + 7) % 7
            inPeriod = { day in (intoWeek + first.days(until: day)) / 7 % interval == 0 }
        }
        rule.freq = ICAL_DAILY_RECURRENCE
        rule.interval = 1
        return { day in (months.isEmpty || months.contains(day.month)) && inPeriod(day) && weeks.contains(day) }
    }

    /// `start` moved forward by whole INTERVALs to a period before `from`'s day, so that a
    /// series started long ago does not use up `maximumSteps` before it reaches `from`
    /// (FREQ=DAILY, or FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR, from 1970 had no next due). The
    /// occurrences from `from` on stay the same: the iterator expands each period alike, from
    /// DTSTART's time of day and the parts of its date libical takes for a missing BY part
    /// (the day of month of a MONTHLY rule without BYDAY or BYMONTHDAY; the month and day of a
    /// YEARLY one), which are kept, and the period DTSTART is moved into ends before `from`.
    /// Not with COUNT, which counts from the first occurrence.
    private static func movedForward(_ start: FloatingTime, near from: FloatingTime?, _ rule: icalrecurrencetype) -> FloatingTime {
        guard let from, rule.count == 0 else { return start }
        let interval = max(1, Int(rule.interval))
        var moved = start
        switch rule.freq {
        case ICAL_DAILY_RECURRENCE, ICAL_WEEKLY_RECURRENCE:
            let period = rule.freq == ICAL_DAILY_RECURRENCE ? 1 : 7
            let step = period * interval
            let steps = (start.day.days(until: from.day) - period) / step
            guard steps > 0 else { return start }
            moved.day = start.day.adding(days: steps * step)
            return moved
        case ICAL_MONTHLY_RECURRENCE:
            guard Limit.values(rule.by_year_day).isEmpty else { return start }
            let picksDays = !Limit.values(rule.by_day).isEmpty || !Limit.values(rule.by_month_day).isEmpty
            let months = (from.day.year - start.day.year) * 12 + from.day.month - start.day.month
            // A kept 31st moves to a month that has one.
            for steps in stride(from: (months - 1) / interval, to: 0, by: -1) {
                let month = start.day.month - 1 + steps * interval
                if let day = LocalDate(year: start.day.year + month / 12, month: month % 12 + 1, day: picksDays ? 1 : start.day.day) {
                    moved.day = day
                    return moved
                }
            }
            return start
        case ICAL_YEARLY_RECURRENCE:
            // A kept February 29 moves to a leap year.
            for steps in stride(from: (from.day.year - start.day.year - 1) / interval, to: 0, by: -1) {
                if let day = LocalDate(year: start.day.year + steps * interval, month: start.day.month, day: start.day.day) {
                    moved.day = day
                    return moved
                }
            }
            return start
        default:
            return start
        }
    }

    /// A YEARLY rule with BYMONTHDAY and no BYMONTH, BYYEARDAY or BYWEEKNO given every month in
    /// BYMONTH: RFC 5545 (and dateutil) expand BYMONTHDAY in each month of the year, libical in
    /// DTSTART's month only (FREQ=YEARLY;BYMONTHDAY=1 from January 15 was due on January 1 alone).
    private static func everyMonth(_ rule: inout icalrecurrencetype) {
        guard rule.freq == ICAL_YEARLY_RECURRENCE, !Limit.values(rule.by_month_day).isEmpty, Limit.values(rule.by_month).isEmpty,
              Limit.values(rule.by_year_day).isEmpty, Limit.values(rule.by_week_no).isEmpty else { return }
        withUnsafeMutableBytes(of: &rule.by_month) { raw in
            let months = raw.bindMemory(to: Int16.self)
            for month in 1...12 { months[month - 1] = Int16(month) }
            months[12] = Int16(truncatingIfNeeded: ICAL_RECURRENCE_ARRAY_MAX.rawValue)
        }
    }

    /// True for a MONTHLY rule whose INTERVAL, stepping from `start`'s month, never lands on a
    /// month of its BYMONTH (FREQ=MONTHLY;INTERVAL=12;BYMONTH=6 from December): libical's
    /// monthly loop would look for one until the year 2582, ignoring the horizon.
    private static func skipsEveryMonth(_ rule: icalrecurrencetype, from start: FloatingTime) -> Bool {
        guard rule.freq == ICAL_MONTHLY_RECURRENCE, rule.interval > 1 else { return false }
        let end = Int16(truncatingIfNeeded: ICAL_RECURRENCE_ARRAY_MAX.rawValue)
        var months = Set<Int>()
        withUnsafeBytes(of: rule.by_month) { raw in
            for value in raw.bindMemory(to: Int16.self) {
                if value == end { break }
                months.insert(Int(value))
            }
        }
        guard !months.isEmpty else { return false }
        let interval = Int(rule.interval)
        return !(0..<12).contains { step in months.contains((start.day.month - 1 + step * interval) % 12 + 1) }
    }
}
