import Foundation
import NudgeCore

/// Not written yet: the ics format.
public enum ICalendarFile {
    public static func encode(_ records: [TodoRecord], options: InterchangeOptions) -> String {
        ""
    }

    public static func decode(_ data: Data, options: InterchangeOptions) throws(InterchangeError) -> DecodedFile {
        throw InterchangeError(reason: "the ics format is not read yet")
    }
}
