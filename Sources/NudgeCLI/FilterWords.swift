import NudgeFilter
import NudgeStore

extension Command {
    /// The query of a command's filter words (`nudge help filter`), read at the context's clock
    /// and zone, pending todos unless it names a status or `all` or `completed` is given.
    static func filtered(_ arguments: Arguments, context: Context, all: Flag? = nil, completed: Flag? = nil) throws(CLIError) -> TodoQuery {
        let parsed: ParsedFilter
        do { parsed = try FilterParser(when: context.whenParser()).parse(arguments.filterWords) } catch { throw .usage(error.message) }
        var query = TodoQuery()
        query.filter = parsed.filter
        let isAll = all.map { arguments[$0] } ?? false, isCompleted = completed.map { arguments[$0] } ?? false
        let flag = isAll ? "--all" : isCompleted ? "--completed" : nil
        if let status = parsed.status, let flag {
            throw .usage("\(flag) and status:\(status.rawValue) cannot be used together; choose one")
        }
        switch parsed.status {
        case .pending?: query.state = .pending
        case .completed?: query.state = .completed
        case .all?: query.state = .all
        case nil: query.state = isAll ? .all : isCompleted ? .completed : .pending
        }
        return query
    }
}
