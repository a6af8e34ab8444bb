import NudgeCore
import NudgeStore

/// Which listed subtasks go under which listed parent. A subtask goes under its parent when
/// the parent is listed and the chain of listed parents above it ends at a todo shown in its
/// own place; a chain that loops (possible in todos from a file) leaves its todos in theirs.
struct SubtaskTree {
    private var children: [Int64: [AgendaLine]] = [:]
    private var placed: Set<Int64> = []
    private var parents: [Int64: Int64] = [:]
    /// How many rows each section gains (or, negative, loses) by subtasks moved under parents.
    private(set) var movedCounts: [AgendaSection: Int] = [:]

    /// `lines` in list order, `sections` of every listed parent and subtask.
    init(lines: [AgendaLine], links: [Int64: (parent: Int64, isDone: Bool)], sections: [Int64: AgendaSection]) {
        // The todo shown in its own place at the top of each listed todo's chain; nil in a loop.
        var roots: [Int64: Int64?] = [:]
        func root(of id: Int64) -> Int64? {
            var chain: [Int64] = [], onChain: Set<Int64> = []
            var current = id
            while true {
                if let known = roots[current] {
                    for member in chain { roots[member] = known }
                    return known
                }
                guard let parent = links[current]?.parent, sections[parent] != nil else {
                    for member in chain + [current] { roots[member] = current }
                    return current
                }
                if onChain.contains(current) {
                    for member in chain { roots[member] = .some(nil) }
                    return nil
                }
                chain.append(current)
                onChain.insert(current)
                current = parent
            }
        }
        for line in lines {
            guard let parent = links[line.id]?.parent, let top = root(of: line.id), top != line.id,
                  let from = sections[line.id], let to = sections[top] else { continue }
            children[parent, default: []].append(line)
            placed.insert(line.id)
            parents[line.id] = parent
            if from != to {
                movedCounts[from, default: 0] -= 1
                movedCounts[to, default: 0] += 1
            }
        }
    }

    func isPlaced(_ id: Int64) -> Bool { placed.contains(id) }

    /// How deep under a todo shown in its own place the todo is shown (0 for that todo),
    /// counting no further than the indentation goes.
    func level(of id: Int64) -> Int {
        var level = 0, current = id
        while let parent = parents[current], level < Todo.maximumSubtaskLevels {
            level += 1
            current = parent
        }
        return level
    }

    func subtasks(of id: Int64) -> [AgendaLine] { children[id] ?? [] }
}
