import Glibc
import NudgePlatform
import Testing

struct CLibraryTests {
    /// Two functions of the C library, laid out as a shim's NUDGE_LIBRARY_TABLE lays them out.
    struct LibcTable {
        var strlen: @convention(c) (UnsafePointer<CChar>) -> Int
        var abs: @convention(c) (Int32) -> Int32
    }

    /// What `open` throws; nil when it opened the library and found every function.
    func failure(_ library: CLibrary, _ symbols: UnsafePointer<CChar>) -> LibraryLoadError? {
        do { _ = try library.open(LibcTable.self, symbols: symbols) } catch { return error }
        return nil
    }

    @Test func aMissingLibraryIsOneTypedErrorNamingItsDebianPackage() throws {
        let library = CLibrary(soname: "libnudge-nonexistent.so.7", package: "libnudge-nonexistent7")
        let error = try #require(failure(library, "strlen\0abs\0"))
        #expect(error.library == "libnudge-nonexistent.so.7")
        #expect(error.package == "libnudge-nonexistent7")
        #expect(error.symbol == nil)
        #expect(error.reason.contains("libnudge-nonexistent.so.7"))
        #expect(error.description == "libnudge-nonexistent.so.7 could not be loaded (install the Debian package libnudge-nonexistent7)")
    }

    @Test func aMissingFunctionIsNamed() throws {
        let error = try #require(failure(CLibrary(soname: "libc.so.6", package: "libc6"), "strlen\0nudge_no_such_function\0"))
        #expect(error.symbol == "nudge_no_such_function")
        #expect(error.description == "libc.so.6 could not be loaded: it has no function nudge_no_such_function (install the Debian package libc6)")
    }

    @Test func theTableHoldsEachFunctionInItsPlace() throws {
        let libc = try CLibrary(soname: "libc.so.6", package: "libc6").open(LibcTable.self, symbols: "strlen\0abs\0")
        #expect(libc.strlen("nudge") == 5)
        #expect(libc.abs(-7) == 7)
    }
}
