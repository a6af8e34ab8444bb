import CSystemd
import Glibc

/// libsystemd's functions, found by dlopen and dlsym on first use (see CSystemd/shim.h): all
/// NULL when the library could not be opened, which `requireSystemd` and `systemdIsOpen` tell.
let systemd: nudge_systemd_api = openedSystemd.api

private let openedSystemd: (api: nudge_systemd_api, error: String?) = {
    var api = nudge_systemd_api()
    let error = nudge_systemd_open(&api).map { String(cString: $0) }
    return (error == nil ? api : nudge_systemd_api(), error)
}()

/// Whether libsystemd was opened: the entry points that cannot throw ask this before the
/// first function of `systemd`.
var systemdIsOpen: Bool { openedSystemd.error == nil }

/// Throws, as ENOSYS with dlerror's message, when libsystemd could not be opened: the entry
/// points that throw call it before the first function of `systemd`.
func requireSystemd() throws(SystemError) {
    if let error = openedSystemd.error {
        throw SystemError(code: ENOSYS, name: "libsystemd", message: error)
    }
}
