import Foundation
import Testing
@testable import NudgeSQLite
@testable import NudgeTestSupport

/// Failures carry SQLite's extended code, its message, and the SQL; a primary code as a
/// pattern matches each of its extended ones.
struct ResultCodeTests {
    let folder = TemporaryDirectory()

    func failure(_ body: () throws -> Void) -> SQLiteError? {
        do {
            try body()
            return nil
        } catch {
            return error as? SQLiteError
        }
    }

    @Test func aUniqueViolationIsAnExtendedConstraintCode() throws {
        let db = try Connection(path: ":memory:", create: true)
        try db.execute("CREATE TABLE t (name TEXT UNIQUE NOT NULL)")
        try db.run("INSERT INTO t VALUES ('milk')")
        let error = try #require(failure { try db.run("INSERT INTO t VALUES ('milk')") })
        #expect(error.code == .constraintUnique)
        #expect(error.code.primary == .constraint)
        #expect(!error.code.isPrimary)
        #expect(error.message == "UNIQUE constraint failed: t.name")
        #expect(error.sql == "INSERT INTO t VALUES ('milk')")
        switch error.code {
        case .busy, .constraintNotNull: Issue.record("matched another code")
        case .constraint: break
        default: Issue.record("the primary code did not match: \(error.code.rawValue)")
        }
        let null = try #require(failure { try db.run("INSERT INTO t VALUES (NULL)") })
        #expect(null.code == .constraintNotNull)
        #expect(.constraint ~= null.code)
        #expect(!(.constraintUnique ~= null.code))
    }

    @Test func aFileThatIsNotADatabaseSaysSo() throws {
        let path = folder.file("notes.txt")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x2a, count: 4096)))
        let db = try Connection(path: path, create: false)
        let error = try #require(failure { _ = try db.scalar("SELECT count(*) FROM sqlite_schema") })
        #expect(error.code == .notADatabase)
        #expect(error.message == "file is not a database")
        #expect("\(error)" == "SQLite error 26: file is not a database (in SELECT count(*) FROM sqlite_schema)")
    }

    @Test func aWriterLockedOutIsBusy() throws {
        let path = folder.file("busy.db")
        let one = try Connection(path: path, create: true)
        try one.execute("PRAGMA journal_mode = WAL; CREATE TABLE t (x)")
        let other = try Connection(path: path, create: false)
        other.setBusyTimeout(milliseconds: 0)
        try one.execute("BEGIN IMMEDIATE")
        let error = try #require(failure { try other.execute("BEGIN IMMEDIATE") })
        #expect(.busy ~= error.code)
        #expect(error.code.primary == .busy)
        try one.execute("COMMIT")
        try other.execute("BEGIN IMMEDIATE; COMMIT")
    }

    @Test func aWriteThroughAReadOnlyConnectionIsReadOnly() throws {
        let path = folder.file("read.db")
        try Connection(path: path, create: true).execute("CREATE TABLE t (x)")
        let reader = try Connection(path: path, create: false, readOnly: true)
        let error = try #require(failure { try reader.run("INSERT INTO t VALUES (1)") })
        #expect(.readOnly ~= error.code)
        #expect(error.message == "attempt to write a readonly database")
    }

    @Test func aMissingFileCannotBeOpened() throws {
        let error = try #require(failure { _ = try Connection(path: folder.file("none/x.db"), create: false) })
        #expect(error.code == .cannotOpen)
        #expect(error.sql == nil)
    }

    @Test func codesReadAsSQLiteWordsThem() {
        #expect(ResultCode.corrupt.description == "database disk image is malformed")
        #expect(ResultCode.full.description == "database or disk is full")
        #expect(ResultCode.locked.rawValue == 6)
        #expect(ResultCode.busySnapshot.primary == .busy)
        #expect(.ioError ~= ResultCode.ioErrorWrite)
        #expect(!(.ioErrorWrite ~= ResultCode.ioError))
    }

    @Test func aFullDiskIsToldFromTheSystemError() {
        #expect(SQLiteError(code: .full, message: "").isDiskFull)
        #expect(SQLiteError(code: .ioErrorWrite, message: "", systemCode: ENOSPC).isDiskFull)
        #expect(!SQLiteError(code: .ioErrorWrite, message: "", systemCode: EIO).isDiskFull)
        #expect(!SQLiteError(code: .corrupt, message: "").isDiskFull)
    }
}
