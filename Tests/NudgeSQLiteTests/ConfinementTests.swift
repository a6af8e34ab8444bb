import Dispatch
import Foundation
import Testing
@testable import NudgeSQLite

/// Hands a connection to another thread on purpose: what is tested is that it is caught.
final class Handed<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Runs `body` on a thread of the global pool (never the caller's) and waits for it.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        done.signal()
    }
    done.wait()
}

/// A connection is used on the thread that opened it, or on the queue it was confined to, and
/// any other use stops the program before SQLite is called.
struct ConfinementTests {
    @Test func aConnectionUsedOnAnotherThreadStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let db = Handed(try Connection(path: ":memory:", create: true))
            onAnotherThread { try? db.value.execute("CREATE TABLE t (x)") }
        }
    }

    @Test func aStatementSteppedOnAnotherThreadStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let db = try Connection(path: ":memory:", create: true)
            let statement = Handed(try db.prepare("SELECT 1"))
            onAnotherThread { _ = try? statement.value.step() }
        }
    }

    @Test func aConnectionConfinedToAQueueStopsTheProgramOffIt() async {
        await #expect(processExitsWith: .failure) {
            let queue = DispatchQueue(label: "nudge.test.sqlite")
            let db = Handed(try Connection(path: ":memory:", create: true))
            queue.sync { db.value.confine(to: queue) }
            _ = try db.value.scalar("SELECT 1")
        }
    }

    @Test func aConnectionConfinedToAQueueWorksOnAnyOfItsThreads() throws {
        let queue = DispatchQueue(label: "nudge.test.sqlite")
        let db = Handed(try Connection(path: ":memory:", create: true))
        try queue.sync {
            db.value.confine(to: queue)
            try db.value.execute("CREATE TABLE t (x)")
        }
        let done = DispatchSemaphore(value: 0)
        let results = Handed(NSMutableArray())
        for n in 1...3 {
            queue.async {
                try? db.value.run("INSERT INTO t VALUES (?)", [.integer(Int64(n))])
                results.value.add(n)
                if n == 3 { done.signal() }
            }
        }
        done.wait()
        #expect(try queue.sync { try db.value.scalar("SELECT count(*) FROM t") } == .integer(3))
    }

    @Test func theLastHolderMayReleaseItAnywhere() throws {
        let db = Handed(try Connection(path: ":memory:", create: true))
        onAnotherThread {
            db.value.adoptAsLastHolder()
            #expect((try? db.value.scalar("SELECT 2")) == .integer(2))
        }
    }
}
