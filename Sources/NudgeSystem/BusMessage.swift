import CSystemd
import Glibc

/// Writing and reading the fields of an sd_bus_message through the non-variadic sd-bus calls
/// (Swift cannot call `sd_bus_message_append` or `sd_bus_message_read`). Does not own the
/// message: whoever created or received it unrefs it.
struct BusMessage {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// A D-Bus type code as sd-bus takes it.
    static func code(_ type: Unicode.Scalar) -> CChar {
        CChar(UInt8(ascii: type))
    }

    // MARK: Writing

    /// The corresponding C function is `sd_bus_message_append_basic`.
    func append(_ value: String) throws(SystemError) {
        try check(value.withCString { systemd.sd_bus_message_append_basic(pointer, Self.code("s"), $0) })
    }

    func append(_ value: UInt32) throws(SystemError) {
        try appendBasic("u", value)
    }

    func append(_ value: Int32) throws(SystemError) {
        try appendBasic("i", value)
    }

    func append(byte value: UInt8) throws(SystemError) {
        try appendBasic("y", value)
    }

    private func appendBasic<Value>(_ type: Unicode.Scalar, _ value: Value) throws(SystemError) {
        try check(withUnsafePointer(to: value) { systemd.sd_bus_message_append_basic(pointer, Self.code(type), $0) })
    }

    /// Opens an array ("a"), struct ("r"), dict entry ("e") or variant ("v") whose contents
    /// have the signature `contents`. The corresponding C function is
    /// `sd_bus_message_open_container`.
    func open(_ type: Unicode.Scalar, _ contents: String) throws(SystemError) {
        try check(systemd.sd_bus_message_open_container(pointer, Self.code(type), contents))
    }

    /// The corresponding C function is `sd_bus_message_close_container`.
    func close() throws(SystemError) {
        try check(systemd.sd_bus_message_close_container(pointer))
    }

    /// An array of strings ("as").
    func append(_ values: [String]) throws(SystemError) {
        try open("a", "s")
        for value in values { try append(value) }
        try close()
    }

    /// One dict entry of an "a{sv}" whose variant holds a string.
    func appendEntry(_ key: String, string value: String) throws(SystemError) {
        try appendEntry(key, variant: "s") { () throws(SystemError) in try append(value) }
    }

    /// One dict entry of an "a{sv}" whose variant holds a byte.
    func appendEntry(_ key: String, byte value: UInt8) throws(SystemError) {
        try appendEntry(key, variant: "y") { () throws(SystemError) in try append(byte: value) }
    }

    /// One dict entry of an "a{sv}" whose variant holds a boolean (D-Bus sends it as 4 bytes).
    func appendEntry(_ key: String, bool value: Bool) throws(SystemError) {
        try appendEntry(key, variant: "b") { () throws(SystemError) in try appendBasic("b", Int32(value ? 1 : 0)) }
    }

    /// One dict entry of an "a{sv}": `key`, then a variant of type `contents` that
    /// `appendValue` fills.
    private func appendEntry(_ key: String, variant contents: String,
                             _ appendValue: () throws(SystemError) -> Void) throws(SystemError) {
        try open("e", "sv")
        try append(key)
        try open("v", contents)
        try appendValue()
        try close()
        try close()
    }

    // MARK: Reading

    /// The next field, a string ("s"). The corresponding C function is
    /// `sd_bus_message_read_basic`.
    func readString() throws(SystemError) -> String {
        var value: UnsafePointer<CChar>? = nil
        let r = try check(systemd.sd_bus_message_read_basic(pointer, Self.code("s"), &value))
        guard r > 0, let value else { throw SystemError(code: EBADMSG) }
        return String(cString: value)
    }

    /// The next field, a UInt32 ("u").
    func readUInt32() throws(SystemError) -> UInt32 {
        var value: UInt32 = 0
        let r = try check(systemd.sd_bus_message_read_basic(pointer, Self.code("u"), &value))
        guard r > 0 else { throw SystemError(code: EBADMSG) }
        return value
    }

    /// The next field, an array of strings ("as"). The corresponding C functions are
    /// `sd_bus_message_enter_container` and `sd_bus_message_exit_container`.
    func readStrings() throws(SystemError) -> [String] {
        guard try check(systemd.sd_bus_message_enter_container(pointer, Self.code("a"), "s")) > 0 else {
            throw SystemError(code: EBADMSG)
        }
        var values: [String] = []
        while true {
            var value: UnsafePointer<CChar>? = nil
            let r = try check(systemd.sd_bus_message_read_basic(pointer, Self.code("s"), &value))
            guard r > 0, let value else { break }
            values.append(String(cString: value))
        }
        try check(systemd.sd_bus_message_exit_container(pointer))
        return values
    }

    /// The unique name of the connection that sent the message, or "" when unknown.
    var sender: String {
        systemd.sd_bus_message_get_sender(pointer).map { String(cString: $0) } ?? ""
    }

    /// The D-Bus error this message carries, or nil when it is not an error reply. Locally
    /// synthesized replies count too: sd-bus answers org.freedesktop.DBus.Error.NoReply
    /// (ETIMEDOUT) with the message "Method call timed out" when the reply is late, and with
    /// "Connection terminated" when the connection closed.
    var error: SystemError? {
        guard let error = systemd.sd_bus_message_get_error(pointer) else { return nil }
        return SystemError(bus: error.pointee, returned: -systemd.sd_bus_message_get_errno(pointer))
    }
}
