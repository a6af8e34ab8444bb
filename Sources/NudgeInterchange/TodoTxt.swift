import Foundation
import NudgeCore

/// Not written yet: the todotxt format.
public enum TodoTxt {
    public static func encode(_ records: [TodoRecord], options: InterchangeOptions) -> String {
        ""
    }

    public static func decode(_ data: Data, options: InterchangeOptions) throws(InterchangeError) -> DecodedFile {
        throw InterchangeError(reason: "the todotxt format is not read yet")
    }
}
