import Glibc

/// A C library opened with dlopen on first use rather than linked, so that a command that never
/// needs it does not map it: libsystemd, libical and libcurl. Its shim declares the table of its
/// functions with `NUDGE_LIBRARY_TABLE` (CLibraryTable/library_table.h).
public struct CLibrary: Sendable {
    /// The file dlopen looks for, e.g. "libical.so.3".
    public let soname: String
    /// The Debian package that installs it, e.g. "libical3".
    public let package: String

    public init(soname: String, package: String) {
        self.soname = soname
        self.package = package
    }

    /// Opens the library and fills a `Table` with its functions, looked up by the names
    /// `symbols` gives (the shim's `*_symbols()`), in the table's order. The library stays
    /// open for the life of the process. The corresponding C functions are `dlopen` and `dlsym`.
    public func open<Table>(_: Table.Type, symbols: UnsafePointer<CChar>) throws(LibraryLoadError) -> Table {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            throw LibraryLoadError(library: soname, package: package, symbol: nil, reason: Self.lastError())
        }
        let slots = MemoryLayout<Table>.size / MemoryLayout<UnsafeRawPointer>.stride
        let table = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<Table>.size, alignment: MemoryLayout<Table>.alignment)
        defer { table.deallocate() }
        var name = symbols
        for slot in 0..<slots {
            let symbol = String(cString: name)
            guard !symbol.isEmpty, let function = dlsym(handle, name) else {
                dlclose(handle)
                throw LibraryLoadError(library: soname, package: package, symbol: symbol.isEmpty ? "number \(slot + 1) (the shim names fewer)" : symbol,
                                       reason: Self.lastError())
            }
            table.storeBytes(of: function, toByteOffset: slot * MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeMutableRawPointer.self)
            name += symbol.utf8.count + 1
        }
        return table.load(as: Table.self)
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
    }
}

/// A library of `CLibrary` that could not be opened, or that lacks a function Nudge calls.
public struct LibraryLoadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file looked for, e.g. "libical.so.3".
    public let library: String
    /// The Debian package that installs it, e.g. "libical3".
    public let package: String
    /// The function dlsym did not find; nil when the library itself was not found.
    public let symbol: String?
    /// dlerror's message.
    public let reason: String

    public init(library: String, package: String, symbol: String?, reason: String) {
        self.library = library
        self.package = package
        self.symbol = symbol
        self.reason = reason
    }

    /// One line, with the fix: "libical.so.3 could not be loaded (install the Debian package libical3)".
    public var description: String {
        let what = symbol.map { "\(library) could not be loaded: it has no function \($0)" } ?? "\(library) could not be loaded"
        return what + " (install the Debian package \(package))"
    }
}
