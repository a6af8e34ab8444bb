import Foundation
import Testing
@testable import NudgeTestSupport

/// The files nudge opens: the database and the config file named on the command line.
struct StoreFileTests {
    let nudge = Nudge()

    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// SQLite would wait for ever for a FIFO's writer; `timeout` keeps a regression from hanging.
    @Test func aDatabasePathThatIsNotAFileIsRefusedInOneLine() throws {
        #expect(mkfifo(nudge.database, 0o600) == 0)
        for command in ["list", "add Milk"] {
            let run = try nudge.shell("timeout -s KILL 20 \"$NUDGE\" \(command)")
            #expect(run.status == 1, "\(command): \(run.stderr)")
            #expect(run.stderr == "nudge: cannot open the database \(nudge.database): it is a FIFO, not a file\n")
        }
        let folder = nudge.folder.file("folder.db")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let run = try nudge("list", environment: ["NUDGE_DB": folder])
        #expect(run.stderr == "nudge: cannot open the database \(folder): it is a folder, not a file\n")
    }

    /// An empty file (a creation cut short, `touch`) becomes a database as private as a new one.
    @Test func anEmptyFileBecomesADatabaseOfMode0600AndSoDoItsLogs() throws {
        #expect(FileManager.default.createFile(atPath: nudge.database, contents: Data()))
        #expect(chmod(nudge.database, 0o644) == 0)
        #expect(try nudge("add", "Buy milk").status == 0)
        for suffix in ["", "-wal", "-shm"] {
            #expect(try mode(nudge.database + suffix) == 0o600, "\(suffix)")
        }
        #expect(try nudge("list").stdout.contains("Buy milk"))
    }

    @Test func aConfigNamedByDashDashConfigMustExist() throws {
        let missing = nudge.folder.file("nudge.cnof")
        for command in [["list"], ["add", "Milk"], ["config", "check"], ["config", "show"]] {
            let run = try nudge.run(["--config", missing] + command)
            #expect(run.status == 1, "\(command)")
            #expect(run.stderr == "nudge: there is no config file \(missing) (named by --config)\n", "\(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: nudge.database))
        // `config path` only says which file it is; the usual path may be missing.
        #expect(try nudge.run(["--config", missing, "config", "path"]).stdout == missing + "\n")
        #expect(try nudge("list").status == 0)
    }

    @Test func aConfigNamedByNudgeConfigMustExist() throws {
        let missing = nudge.folder.file("nudge.cnof")
        for command in [["list"], ["add", "Milk"], ["config", "check"], ["config", "show"]] {
            let run = try nudge.run(command, environment: ["NUDGE_CONFIG": missing])
            #expect(run.status == 1, "\(command)")
            #expect(run.stderr == "nudge: there is no config file \(missing) (named by NUDGE_CONFIG)\n", "\(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: nudge.database))
        #expect(try nudge.run(["config", "path"], environment: ["NUDGE_CONFIG": missing]).stdout == missing + "\n")
        // Set but empty, it names no file: the usual path is read.
        #expect(try nudge.run(["list"], environment: ["NUDGE_CONFIG": ""]).status == 0)
    }

    /// A database in a folder its user cannot write (a read-only mount, a copy), without the
    /// -wal and -shm files SQLite would make beside it: commands that only read still read it.
    /// Run as nobody, since root writes any folder.
    @Test func listInAReadOnlyFolderReadsTheTodos() throws {
        let home = nudge.folder.file("home")
        let data = home + "/data"
        let run = { (command: String) throws -> Run in
            try nudge.shell("chmod 711 \"$HOME\"; cd /; setpriv --reuid=65534 --regid=65534 --clear-groups "
                + "env HOME='\(home)' NUDGE_DB='\(data)/nudge.db' \"$NUDGE\" \(command)")
        }
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        #expect(chown(home, 65534, 65534) == 0 && chown(data, 65534, 65534) == 0)
        #expect(try run("add 'Buy milk' --due tomorrow").status == 0)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: data + "/nudge.db" + suffix) }
        #expect(chmod(data, 0o555) == 0)
        for command in ["list", "show 1", "status", "upcoming", "export --all"] {
            let result = try run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stderr.isEmpty, "\(command): \(result.stderr)")
        }
        #expect(try run("list").stdout.contains("Buy milk"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.hasPrefix("nudge.db-") }
                    .allSatisfy { $0 == "nudge.db-checked" })
    }
}
