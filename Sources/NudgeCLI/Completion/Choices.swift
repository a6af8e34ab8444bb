import NudgeCore
import NudgeInterchange
import NudgeRecurrence

/// The fixed values options take, from the types that read them, so that completion cannot
/// offer what parsing refuses.
enum Choices {
    static let priorities = Priority.allCases.map(\.description)
    static let repeatRules = RepeatRule.namedForms
    static let repeatFrom = RepeatFrom.allCases.map(\.rawValue)
    static let sortKeys = TodoOrder.allCases.map(\.rawValue)
    static let formats = InterchangeFormat.allCases.map(\.rawValue)
}
