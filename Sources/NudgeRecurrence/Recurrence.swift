import CICal
import Foundation

/// The thin layer over libical's RRULE parser and icalrecur iterator. Every call into libical
/// goes through `lock`, so the rest of Nudge may use repeat rules from any thread.
enum Recurrence {
    /// The most occurrences looked at for one answer. Reaching it counts as "no next occurrence",
    /// so no rule (an exhausted COUNT, an UNTIL in the past, a rule that never matches) can make
    /// `nextDue` loop for long.
    static let maximumSteps = 10_000

    private static let lock = NSLock()

    enum Problem: Error, Equatable {
        /// libical cannot read the rule.
        case unreadable
        /// The rule repeats more often than daily (FREQ=SECONDLY, MINUTELY or HOURLY).
        case subDaily(frequency: String)
    }

    /// Checks an RRULE value (without the "RRULE:" prefix) and returns it as libical writes it
    /// back (icalrecurrencetype_as_string_r), e.g. "freq=weekly;interval=2" -> "FREQ=WEEKLY;INTERVAL=2".
    static func canonical(_ value: String) throws(Problem) -> String {
        let result: Result<String, Problem> = lock.withLock {
            icalerror_clear_errno()
            var rule = icalrecurrencetype_from_string(value)
            defer { free(rule.rscale) }
            switch rule.freq {
            case ICAL_NO_RECURRENCE:
                return .failure(.unreadable)
            case ICAL_SECONDLY_RECURRENCE, ICAL_MINUTELY_RECURRENCE, ICAL_HOURLY_RECURRENCE:
                return .failure(.subDaily(frequency: String(cString: icalrecur_freq_to_string(rule.freq))))
            default:
                guard let text = icalrecurrencetype_as_string_r(&rule) else { return .failure(.unreadable) }
                defer { free(text) }
                return .success(String(cString: text))
            }
        }
        return try result.get()
    }

    /// Runs libical's iterator for `rrule` with DTSTART = `start` (floating: no zone) and hands
    /// each occurrence, in order, to `body` until `body` returns a value, the series ends, or
    /// `maximumSteps` occurrences have been seen. The first occurrence is normally DTSTART itself.
    static func first<T>(in rrule: String, start: FloatingTime, where body: (FloatingTime) -> T?) -> T? {
        lock.withLock {
            let rule = icalrecurrencetype_from_string(rrule)
            defer { free(rule.rscale) }
            guard rule.freq != ICAL_NO_RECURRENCE,
                  let iterator = icalrecur_iterator_new(rule, start.icalTime) else { return nil }
            defer { icalrecur_iterator_free(iterator) }
            for _ in 0..<maximumSteps {
                guard let occurrence = FloatingTime(icalrecur_iterator_next(iterator)) else { return nil }
                if let found = body(occurrence) { return found }
            }
            return nil
        }
    }
}
