import Foundation
import NudgeCore
import NudgeInterchange

/// The formats `nudge import` reads: what an import keeps must export and import again to the
/// same todos, and the second export must be the first (the round trip settles at once).
enum InterchangeTargets {
    static let options = InterchangeOptions(zone: Fixed.berlin, now: Fixed.now, source: "https://example.org/todos")

    static func json(_ data: Data) { roundTrip(.json, data) }
    static func ics(_ data: Data) { roundTrip(.ics, data) }
    static func taskwarrior(_ data: Data) { roundTrip(.taskwarrior, data) }
    static func todotxt(_ data: Data) { roundTrip(.todotxt, data) }

    /// Any file, in the format its start gives, as `nudge import FILE` without --format reads it.
    static func guessed(_ data: Data) {
        guard let format = try? InterchangeFormat.guess(data, contentType: nil) else { return }
        roundTrip(format, data)
    }

    static func roundTrip(_ format: InterchangeFormat, _ data: Data) {
        guard let file = try? format.decode(data, options: options) else { return }
        check(file.places.count == file.items.count, "\(format): \(file.items.count) items in \(file.places.count) places")
        var uuids = Set<String>()
        // A uuid once: the same task written twice by hand gets one name-based uuid, and an
        // import stores it once.
        let records = file.items.compactMap { try? $0.get() }.filter { uuids.insert($0.uuid).inserted }
        records.forEach { checkInYears($0) }
        guard !records.isEmpty else { return }

        let written = format.encode(records, options: options)
        let again: DecodedFile
        do { again = try format.decode(Data(written.utf8), options: options) } catch {
            violated("\(format): the export of what was read cannot be read back: \(error)\n\(written)")
        }
        let back = again.items.map { item -> TodoRecord in
            switch item {
            case .success(let record): return record
            case .failure(let error): violated("\(format): a todo of the export cannot be read back: \(error)\n\(written)")
            }
        }
        check(back.count == records.count, "\(format): \(records.count) todos exported, \(back.count) read back\n\(written)")
        for (first, second) in zip(records, back) {
            checkInYears(second)
            check(first.uuid == second.uuid && first.title == second.title && first.due == second.due
                  && (first.completedAt == nil) == (second.completedAt == nil)
                  && first.category == second.category && (first.tags ?? []) == (second.tags ?? [])
                  && first.parentUUID == second.parentUUID && (first.after ?? []) == (second.after ?? []),
                  "\(format): a todo changed on the way out and back in:\n\(first)\n\(second)\n\(written)")
        }
        let rewritten = format.encode(back, options: options)
        check(rewritten == written, "\(format): the round trip does not settle:\n\(written)\n---\n\(rewritten)")
    }
}
