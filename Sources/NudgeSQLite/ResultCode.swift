import CSQLite

/// A SQLite result code: a primary code in the low byte, and with extended result codes on
/// (every connection here opens so) a detail above it. A primary code as a pattern matches
/// each of its extended codes: `case .busy` also catches `.busySnapshot`.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The code without its extended bits.
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xff) }

    public var isPrimary: Bool { rawValue == primary.rawValue }

    /// SQLite's English words for the code. The corresponding C function is `sqlite3_errstr`.
    public var description: String { String(cString: sqlite3_errstr(rawValue)) }

    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primary : pattern == code
    }

    public static let ok = ResultCode(rawValue: SQLITE_OK)
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    public static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    public static let permission = ResultCode(rawValue: SQLITE_PERM)
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    public static let notFound = ResultCode(rawValue: SQLITE_NOTFOUND)
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    public static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    public static let `protocol` = ResultCode(rawValue: SQLITE_PROTOCOL)
    public static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    public static let row = ResultCode(rawValue: SQLITE_ROW)
    public static let done = ResultCode(rawValue: SQLITE_DONE)

    // The extended codes callers tell apart, as sqlite3.h defines them (its macros of two
    // terms are not imported into Swift).
    public static let busySnapshot = ResultCode(rawValue: SQLITE_BUSY | 2 << 8)
    public static let busyTimeout = ResultCode(rawValue: SQLITE_BUSY | 3 << 8)
    public static let readOnlyDatabaseMoved = ResultCode(rawValue: SQLITE_READONLY | 4 << 8)
    public static let readOnlyCannotInit = ResultCode(rawValue: SQLITE_READONLY | 5 << 8)
    public static let readOnlyDirectory = ResultCode(rawValue: SQLITE_READONLY | 6 << 8)
    public static let ioErrorShortRead = ResultCode(rawValue: SQLITE_IOERR | 2 << 8)
    public static let ioErrorWrite = ResultCode(rawValue: SQLITE_IOERR | 3 << 8)
    public static let ioErrorFsync = ResultCode(rawValue: SQLITE_IOERR | 4 << 8)
    public static let corruptIndex = ResultCode(rawValue: SQLITE_CORRUPT | 3 << 8)
    public static let constraintCheck = ResultCode(rawValue: SQLITE_CONSTRAINT | 1 << 8)
    public static let constraintForeignKey = ResultCode(rawValue: SQLITE_CONSTRAINT | 3 << 8)
    public static let constraintNotNull = ResultCode(rawValue: SQLITE_CONSTRAINT | 5 << 8)
    public static let constraintPrimaryKey = ResultCode(rawValue: SQLITE_CONSTRAINT | 6 << 8)
    public static let constraintUnique = ResultCode(rawValue: SQLITE_CONSTRAINT | 8 << 8)
}
