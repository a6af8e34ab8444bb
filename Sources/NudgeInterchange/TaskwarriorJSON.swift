import Foundation
import NudgeCore

/// Not written yet: the taskwarrior format.
public enum TaskwarriorJSON {
    public static func encode(_ records: [TodoRecord], options: InterchangeOptions) -> String {
        ""
    }

    public static func decode(_ data: Data, options: InterchangeOptions) throws(InterchangeError) -> DecodedFile {
        throw InterchangeError(reason: "the taskwarrior format is not read yet")
    }
}

extension TaskwarriorJSON {
    /// A JSON array whose first item has a `description`, as Taskwarrior's tasks do.
    static func looksLikeTaskwarrior(_ data: Data) -> Bool {
        guard let items = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]],
              let first = items.first else { return false }
        return first["description"] != nil && first["title"] == nil
    }
}
