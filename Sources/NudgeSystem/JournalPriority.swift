/// A journal entry's `PRIORITY`: the syslog levels, most urgent first.
public enum JournalPriority: Int32, Sendable {
    case emergency, alert, critical, error, warning, notice, info, debug

    /// The level `level` names, or the nearest one when it is out of the range 0–7.
    public init(clamping level: Int32) {
        self = Self(rawValue: min(max(level, 0), 7)) ?? .debug
    }
}
