import CICal
import Foundation
import NudgePlatform

/// libical, owned by this module: opened with dlopen on first use (see CICal/shim.h), and
/// called only inside `withLock`, by this module's repeat rules and by NudgeInterchange's
/// iCalendar files alike. libical keeps global state (its error number, its table of built-in
/// zones), so two threads calling it at once race whichever module they come from.
public enum LibICalLibrary {
    public static let library = CLibrary(soname: "libical.so.3", package: "libical3")

    /// Opens libical if it is not open yet. Called where a failure must be told before a use
    /// that cannot tell it: a stored repeat rule is read where an error would end the series
    /// (`Todo.nextOccurrence`), and an iCalendar file is written by code that cannot fail.
    /// A command that never meets a repeat rule or an iCalendar file never maps libical.
    public static func open() throws(LibraryLoadError) {
        _ = try opened.get()
    }

    fileprivate static let opened = Result { () throws(LibraryLoadError) in
        let api = try library.open(nudge_ical_api.self, symbols: nudge_ical_api_symbols())
        // A parameter libical does not know (`X-FOO;PARAM=1:bar`, `LOCATION;FOO=bar:...`) is kept
        // as an IANA parameter, not dropped by the parser (its default), so that a property kept
        // verbatim is written back whole.
        api.ical_set_unknown_token_handling_setting(ICAL_ASSUME_IANA_TOKEN)
        return api
    }

    /// Recursive, because the iCalendar reader, which holds it, checks a VTODO's RRULE through
    /// `RepeatRule`, which takes it again.
    private static let lock = NSRecursiveLock()

    /// Runs `body`, which may call `ical`, holding the one lock around libical; throws when
    /// libical could not be opened.
    package static func withLock<T>(_ body: () -> T) throws(LibraryLoadError) -> T {
        try open()
        return lock.withLock(body)
    }

    /// `withLock` for a caller that knows libical is open: it holds a `RepeatRule`, which only
    /// an open libical makes, or its command called `open` first.
    package static func withOpenLock<T>(_ body: () -> T) -> T {
        do { return try withLock(body) } catch {
            preconditionFailure("\(error), and LibICalLibrary.open() was not called before a use that cannot fail")
        }
    }
}

/// libical's functions, found by dlsym (see CICal/shim.h). Called only inside
/// `LibICalLibrary.withLock`, which opens the library first.
package let ical: nudge_ical_api = (try? LibICalLibrary.opened.get()) ?? nudge_ical_api()
