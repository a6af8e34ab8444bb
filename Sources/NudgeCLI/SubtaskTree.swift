import NudgeCore
import NudgeStore

/// Which listed subtasks go under which listed parent. A subtask goes under its parent when
/// the parent is listed and the chain of listed parents above it ends at a todo shown in its
/// own place; a chain that loops (possible in todos from a file) leaves its todos in theirs.
struct SubtaskTree {
    private var placed: Set<Int64> = []
    private var parents: [Int64: Int64] = [:]
    /// The todos with a subtask placed under them.
    private var withSubtasks: Set<Int64> = []
    /// How many rows each section gains (or, negative, loses) by subtasks moved under parents.
    private(set) var movedCounts: [AgendaSection: Int] = [:]

    /// `listed` has the section of every listed parent and subtask.
    init(links: [Int64: (parent: Int64, isDone: Bool)], listed: [Int64: (section: AgendaSection, titleWidth: Int)]) {
        // The todo shown in its own place at the top of each listed todo's chain; nil in a loop.
        var roots: [Int64: Int64?] = [:]
        func root(of id: Int64) -> Int64? {
            // A chain is short but for one from a file: searched along until it is long.
            var chain: [Int64] = [], onChain: Set<Int64> = []
            var current = id
            while true {
                if let known = roots[current] {
                    for member in chain { roots[member] = known }
                    return known
                }
                guard let parent = links[current]?.parent, listed[parent] != nil else {
                    for member in chain { roots[member] = current }
                    roots[current] = current
                    return current
                }
                if chain.count < 16 ? chain.contains(current) : onChain.contains(current) {
                    for member in chain { roots[member] = .some(nil) }
                    return nil
                }
                chain.append(current)
                if chain.count == 16 { onChain = Set(chain) } else if chain.count > 16 { onChain.insert(current) }
                current = parent
            }
        }
        for (id, link) in links {
            guard let from = listed[id]?.section, let top = root(of: id), top != id, let to = listed[top]?.section else { continue }
            placed.insert(id)
            parents[id] = link.parent
            withSubtasks.insert(link.parent)
            if from != to {
                movedCounts[from, default: 0] -= 1
                movedCounts[to, default: 0] += 1
            }
        }
    }

    func isPlaced(_ id: Int64) -> Bool { placed.contains(id) }

    func hasSubtasks(_ id: Int64) -> Bool { withSubtasks.contains(id) }

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
}
