import CSystemd
import Glibc

extension SystemError {
    /// From a filled-in sd_bus_error and the call's negative return value.
    init(bus error: sd_bus_error, returned value: Int32) {
        self.init(code: value < 0 ? -value : EIO,
                  name: error.name.map { String(cString: $0) },
                  message: error.message.map { String(cString: $0) })
    }
}
