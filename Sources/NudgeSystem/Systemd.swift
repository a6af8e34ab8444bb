import CSystemd
import Glibc
import NudgePlatform

/// libsystemd, opened with dlopen on first use: only `nudge history` and nudged need it.
let systemdLibrary = CLibrary(soname: "libsystemd.so.0", package: "libsystemd0")

/// libsystemd's functions, found on first use: all NULL when the library could not be opened,
/// which `requireSystemd` and `systemdIsOpen` tell.
let systemd: nudge_systemd_api = (try? openedSystemd.get()) ?? nudge_systemd_api()

private let openedSystemd = Result { () throws(LibraryLoadError) in
    try systemdLibrary.open(nudge_systemd_api.self, symbols: nudge_systemd_api_symbols())
}

/// Whether libsystemd was opened: the entry points that cannot throw ask this before the
/// first function of `systemd`.
var systemdIsOpen: Bool { (try? openedSystemd.get()) != nil }

/// Throws when libsystemd could not be opened: the entry points that throw call it before the
/// first function of `systemd`.
func requireSystemd() throws(SystemError) {
    if case .failure(let error) = openedSystemd { throw SystemError(error) }
}
