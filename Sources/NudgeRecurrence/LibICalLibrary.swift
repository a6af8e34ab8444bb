import CICal
import Foundation
import Glibc

/// libical's functions, found by dlopen and dlsym on first use (see CICal/shim.h). libical is
/// a dependency of the package, not an option: without it the process ends as the dynamic
/// loader ended it at start when nudge was linked with it, with its message and status 127.
package let ical: nudge_ical_api = {
    var api = nudge_ical_api()
    if let error = nudge_ical_open(&api) {
        let line = "error while loading shared libraries: " + String(cString: error) + "\n"
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        exit(127)
    }
    // A parameter libical does not know (`X-FOO;PARAM=1:bar`, `LOCATION;FOO=bar:...`) is kept
    // as an IANA parameter, not dropped by the parser (its default), so that a property kept
    // verbatim is written back whole.
    api.ical_set_unknown_token_handling_setting(ICAL_ASSUME_IANA_TOKEN)
    return api
}()

/// The one lock around libical, for NudgeRecurrence and NudgeInterchange alike: libical keeps
/// global state (its error number, its table of built-in zones), so two threads calling it at
/// once race whichever module they come from. Recursive, because the iCalendar reader, which
/// holds it, checks a VTODO's RRULE through `RepeatRule`, which takes it again.
package let icalLock = NSRecursiveLock()
