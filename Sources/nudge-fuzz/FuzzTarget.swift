import Foundation

/// One parser under the fuzzer: `run` feeds it an input and stops the process (a finding) when
/// a property that must hold for every input does not.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable (Data) -> Void

    static let all: [FuzzTarget] = [
        FuzzTarget(name: "when", run: CoreTargets.when),
        FuzzTarget(name: "duration", run: CoreTargets.duration),
        FuzzTarget(name: "hook", run: CoreTargets.hook),
        FuzzTarget(name: "filter", run: FilterTarget.filter),
        FuzzTarget(name: "rule", run: RuleTargets.rule),
        FuzzTarget(name: "config", run: ConfigTargets.config),
        FuzzTarget(name: "quote", run: ConfigTargets.quote),
        FuzzTarget(name: "ics", run: InterchangeTargets.ics),
        FuzzTarget(name: "vdir", run: SyncTarget.vdir),
        FuzzTarget(name: "taskwarrior", run: InterchangeTargets.taskwarrior),
        FuzzTarget(name: "todotxt", run: InterchangeTargets.todotxt),
        FuzzTarget(name: "json", run: InterchangeTargets.json),
        FuzzTarget(name: "import", run: InterchangeTargets.guessed),
    ]

    static var names: [String] { all.map(\.name) }

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
