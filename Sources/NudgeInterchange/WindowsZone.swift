import Foundation
import _FoundationICU

/// Outlook and Exchange name zones by their Windows ids ("W. Europe Standard Time"). CLDR's
/// windowsZones maps each to an IANA zone; Foundation's own ICU carries that table, though
/// Foundation offers no way to it on Linux, so it is asked directly. Linking Debian's ICU
/// instead would load a second ICU at every command's start.
enum WindowsZone {
    /// The zone CLDR gives for a Windows id (its "001" territory), or nil for any other name.
    static func zone(forWindowsID id: String) -> TimeZone? {
        let windows = Array(id.utf16)
        var identifier = [UChar](repeating: 0, count: 64)
        var status = U_ZERO_ERROR
        let length = swift_ucal_getTimeZoneIDForWindowsID(windows, Int32(windows.count), nil,
                                                          &identifier, Int32(identifier.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0, Int(length) <= identifier.count else { return nil }
        return TimeZone(identifier: String(decoding: identifier[..<Int(length)], as: UTF16.self))
    }
}
