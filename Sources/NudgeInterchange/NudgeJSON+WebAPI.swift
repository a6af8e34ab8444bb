import Foundation
import NudgeCore

/// The todos of web APIs: `[{"userId": 1, "id": 1, "title": "...", "completed": false}]`
/// (jsonplaceholder, dummyjson's `todo` for the title). An item has no UUID of its own: it is
/// named by where it was read and its id, so that importing again finds the same todo.
extension NudgeJSON {
    /// The keys read; others are counted in the summary as not kept.
    static let webKeys: Set<String> = ["id", "title", "todo", "completed", "dueDate", "due_on", "due"]

    static func webRecord(_ object: [String: Any], number: Int, options: InterchangeOptions,
                          notKept: inout [String: Int]) throws(RecordError) -> TodoRecord {
        func failure(_ field: String, _ reason: String) -> RecordError {
            RecordError(item: number, field: field, reason: reason)
        }
        let id: String
        switch object["id"] {
        case let number as NSNumber where type(of: number) != type(of: NSNumber(value: true))
            && number.doubleValue == number.doubleValue.rounded():
            id = number.stringValue
        case let text as String where !text.isEmpty && text.count <= 200:
            id = text
        default:
            throw failure("id", "is not a number or text")
        }
        let titleKey = object["title"] == nil && object["todo"] != nil ? "todo" : "title"
        guard let rawTitle = object[titleKey] as? String else {
            throw failure(titleKey, object[titleKey] == nil ? "is missing" : "is not text")
        }
        let title: String
        do { title = try Todo.validatedTitle(rawTitle) } catch { throw failure(titleKey, error.message) }
        var completed = false
        if let value = object["completed"], !(value is NSNull) {
            guard let flag = value as? Bool, type(of: value as AnyObject) == type(of: NSNumber(value: true) as AnyObject) else {
                throw failure("completed", "is not true or false")
            }
            completed = flag
        }
        var due: Due?
        if let key = ["dueDate", "due_on", "due"].first(where: { object[$0] != nil && !(object[$0] is NSNull) }) {
            guard let text = object[key] as? String else { throw failure(key, "is not text") }
            if let day = LocalDate(iso: String(text.prefix(10))), text.count == 10 {
                due = .allDay(day)
            } else if let instant = parseDate(text) {
                due = .at(instant, zone: options.zone)
            } else {
                throw failure(key, "is not a date: '\(text)' (use 2026-12-24 or 2026-12-24T09:00:00+01:00)")
            }
        }
        for key in object.keys where !webKeys.contains(key) {
            notKept[key, default: 0] += 1
        }
        let source = options.source ?? "stdin"
        return TodoRecord(uuid: NameBasedUUID.url(source + "#" + id), title: title, due: due,
                          completedAt: completed ? options.now : nil, createdAt: options.now, updatedAt: options.now)
    }
}
