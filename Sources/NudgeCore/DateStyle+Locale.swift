import CLinux
import Foundation

extension DateStyle {
    /// The style of the locale that the environment names for times: `LC_ALL`, else
    /// `LC_TIME`, else `LANG` (the first that is set and not empty, as POSIX has it).
    public init(environment: [String: String]) {
        self = Self.localeName(environment: environment).flatMap { DateStyle(localeNamed: $0.name) } ?? .standard
    }

    /// The locale the environment names for times, and the variable that names it.
    public static func localeName(environment: [String: String]) -> (name: String, variable: String)? {
        for variable in ["LC_ALL", "LC_TIME", "LANG"] {
            if let name = environment[variable], !name.isEmpty { return (name, variable) }
        }
        return nil
    }

    /// A locale's style, read from glibc's compiled locale data (what `locale -k LC_TIME`
    /// prints); nil for C and POSIX, whose US-shaped formats stand for no one's habits, and for
    /// a locale that is not installed. The corresponding C functions are `newlocale` and
    /// `nl_langinfo_l`.
    public init?(localeNamed name: String) {
        if name == "C" || name == "POSIX" || name.hasPrefix("C.") || name.hasPrefix("POSIX.") { return nil }
        guard let locale = newlocale(LC_TIME_MASK, name, nil) else { return nil }
        defer { freelocale(locale) }
        func item(_ item: Int) -> String {
            String(cString: nudge_langinfo(Int32(item), locale))
        }
        var timeFormat = item(Int(T_FMT))
        timeFormat = timeFormat.replacingOccurrences(of: "%r", with: item(Int(T_FMT_AMPM)))
        let twelveHour = ["%I", "%l", "%p", "%P"].contains { timeFormat.contains($0) }
        let origin = Int(nudge_week_origin(locale))
        let first = Int(nudge_first_weekday(locale))
        let weekStart: Int
        if let originDay = LocalDate(year: origin / 10000, month: origin / 100 % 100, day: origin % 100), (1...7).contains(first) {
            weekStart = (originDay.isoWeekday - 1 + first - 1) % 7 + 1
        } else {
            weekStart = 1
        }
        self.init(clock: twelveHour ? .twelveHour : .twentyFourHour,
                  dateOrder: Self.order(ofDateFormat: item(Int(D_FMT))), weekStart: weekStart)
    }

    /// The order of day and month in a strftime format such as "%m/%d/%Y" or "%d.%m.%Y".
    static func order(ofDateFormat format: String) -> DateOrder? {
        let expanded = format.replacingOccurrences(of: "%D", with: "%m/%d/%y").replacingOccurrences(of: "%F", with: "%Y-%m-%d")
        func position(_ directives: [String]) -> String.Index? {
            directives.compactMap { expanded.range(of: $0)?.lowerBound }.min()
        }
        guard let day = position(["%d", "%e", "%Od", "%Oe"]), let month = position(["%m", "%b", "%B", "%h", "%Om"]) else {
            return nil
        }
        if let year = position(["%Y", "%y", "%EY", "%Ey", "%C"]), year < month, year < day, month < day {
            return .yearMonthDay
        }
        return day < month ? .dayMonthYear : .monthDayYear
    }
}
