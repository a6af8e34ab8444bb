import Foundation
import NudgeCore
import NudgeStore
import NudgeSystem

/// The config and the store as last loaded, and the journal: what every part of the service
/// reads. A reload or a replaced database file changes them under all the parts at once.
final class ServiceContext {
    let environment: ReminderService.Environment
    private(set) var config: NudgeConfig
    private var opened: TodoStore?
    private var databaseID: String?

    /// Loads the config and opens the store. Throws when either is unusable.
    init(_ environment: ReminderService.Environment) throws {
        self.environment = environment
        config = NudgeConfig()
        try load()
    }

    /// The store as last opened. It is missing only while `reopen` lets go of a replaced file
    /// and opens the one at the path now; when that fails the service stops.
    var store: TodoStore {
        guard let opened else { preconditionFailure("the store is used after it could not be opened again") }
        return opened
    }

    var now: Date { environment.now() }

    /// How notifications and journal lines write dates, and how snooze choices are read.
    var dateStyle: DateStyle { environment.localeStyle.overridden(by: config.display) }

    /// Reads the config and opens the store anew. Throws, keeping the old config, when
    /// either is unusable.
    func load() throws {
        let config = try environment.loadConfig()
        let planner = ReminderPlanner(config: config, zone: environment.zone())
        let store = try environment.openStore(planner, now)
        store.confine(to: environment.queue)
        opened = store
        store.deferCheckpoints()
        databaseID = try store.databaseID()
        self.config = config
        _ = try? store.changedElsewhere()
    }

    /// The file at the database's path is not the one open: lets go of the old one, then opens
    /// what is there now. The old connection closes before the new file is opened.
    func reopen() throws {
        do { try store.releaseReplacedFile() } catch {
            record(.failed, "could not release the replaced database file: \(error)", priority: .warning)
        }
        opened = nil
        try load()
    }

    /// After work that may have read every todo (opening the store, planning them all): what it
    /// left in SQLite's cache and the heap would otherwise stay while the service sleeps.
    func releaseMemory() {
        store.releaseMemory()
        environment.trimHeap()
    }

    /// `uuid`: the todo's, when the caller has it at hand; otherwise it is read from the store.
    func record(_ kind: ServiceEvent.Kind, _ message: String, todo: Int64? = nil, uuid known: String? = nil,
                rule: String? = nil, priority: JournalPriority = .info, fields: [(JournalField, String)] = []) {
        let uuid = known ?? todo.flatMap { id in (try? opened?.existingTodos(ids: [id]))?.first?.uuid }
        environment.events.record(ServiceEvent(kind: kind, message: message, todoID: todo, todoUUID: uuid,
                                               databaseID: databaseID, rule: rule, priority: priority, fields: fields))
    }
}
