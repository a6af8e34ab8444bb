import Foundation
import Testing
@testable import NudgeTestSupport

/// The `--json` of the commands that show something, at Sunday 2026-11-29 10:53 in Berlin,
/// read back with JSONSerialization and checked against what nudge was given.
struct JSONOutputTests {
    let nudge = Nudge()

    /// A weekly todo due tomorrow at 09:00 with two reminders of its own, under the default
    /// rules (10 minutes before, at the due, nagging hourly).
    func addWeeklyTodo() throws {
        #expect(try nudge("add", "Water the plants", "--due", "2026-11-30 09:00", "--repeat", "weekly",
                          "--remind", "1h", "--remind", "2026-11-30 07:00").status == 0)
    }

    @Test func showTellsHowATodoRepeatsAndReminds() throws {
        try addWeeklyTodo()
        let todo = try nudge("show", "1", "--json").object()
        // The keys list --json has, unchanged.
        #expect(todo["title"] as? String == "Water the plants")
        #expect(todo["due"] as? String == "2026-11-30T09:00:00+01:00")
        #expect(todo["overdue"] as? Bool == false)
        let repeats = try #require(todo["repeat"] as? [String: Any])
        #expect(repeats["rule"] as? String == "weekly")
        #expect(repeats["rrule"] as? String == "FREQ=WEEKLY")
        #expect(repeats["from"] as? String == "due")
        #expect(repeats["start"] as? String == "2026-11-30T09:00")
        #expect(repeats["zone"] as? String == "Europe/Berlin")
        let reminders = try #require(todo["reminders"] as? [[String: Any]])
        #expect(reminders.count == 2)
        #expect(reminders.first?["rule"] as? String == "remind 1h")
        #expect(reminders.first?["before"] as? String == "1h")
        #expect(reminders.first?["at"] is NSNull)
        #expect(reminders.last?["before"] is NSNull)
        #expect(reminders.last?["at"] as? String == "2026-11-30T07:00:00+01:00")
        #expect(todo["defaultReminders"] as? Bool == true)
        #expect(todo["snoozedUntil"] is NSNull)
        // Its own reminder at 07:00 comes before 08:00 (1h before) and 08:50 (10m before).
        let next = try #require(todo["nextReminder"] as? [String: Any])
        #expect(next["at"] as? String == "2026-11-30T07:00:00+01:00")
        #expect(next["rule"] as? String == "remind 2026-11-30T06:00Z")
        #expect(next["nominal"] as? String == "2026-11-30T07:00:00+01:00")
        // The same reminder is the first that upcoming lists.
        let upcoming = try nudge("upcoming", "--json").array()
        #expect(upcoming.first?["at"] as? String == next["at"] as? String)
        #expect(upcoming.first?["rule"] as? String == next["rule"] as? String)
        #expect(upcoming.first?["nominal"] as? String == next["nominal"] as? String)
    }

    @Test func showOfASnoozedTodoNamesTheSnooze() throws {
        try addWeeklyTodo()
        try nudge("snooze", "1", "2h")
        let todo = try nudge("show", "1", "--json").object()
        #expect(todo["snoozedUntil"] as? String == "2026-11-29T12:53:00+01:00")
        let next = try #require(todo["nextReminder"] as? [String: Any])
        #expect(next["rule"] as? String == "snooze")
        #expect(next["at"] as? String == "2026-11-29T12:53:00+01:00")
    }

    @Test func showOfAPlainTodoHasNullsAndEmptyLists() throws {
        try nudge("add", "Someday", "--no-default-reminders")
        let todo = try nudge("show", "1", "--json").object()
        #expect(todo["repeat"] is NSNull)
        #expect((todo["reminders"] as? [Any])?.isEmpty == true)
        #expect(todo["defaultReminders"] as? Bool == false)
        #expect(todo["nextReminder"] is NSNull)
        try nudge("add", "Report", "--due", "today 18:00", "--repeat", "every 2 weeks", "--repeat-from", "completion")
        try nudge("done", "1")
        let done = try nudge("show", "1", "--json").object()
        #expect(done["completed"] as? Bool == true)
        #expect(done["nextReminder"] is NSNull)
        let repeats = try #require(try nudge("show", "2", "--json").object()["repeat"] as? [String: Any])
        #expect(repeats["rrule"] as? String == "FREQ=WEEKLY;INTERVAL=2")
        #expect(repeats["from"] as? String == "completion")
    }

    @Test func explainListsEveryReminderWithItsRuleAndReason() throws {
        try addWeeklyTodo()
        let explained = try nudge("explain", "1", "--json").object()
        #expect(explained["id"] as? Int == 1)
        #expect(explained["title"] as? String == "Water the plants")
        #expect(explained["due"] as? String == "2026-11-30T09:00:00+01:00")
        #expect(explained["rules"] as? [String] == ["[reminders]"])
        #expect(explained["completed"] as? Bool == false)
        #expect((explained["repeat"] as? [String: Any])?["rrule"] as? String == "FREQ=WEEKLY")
        let reminders = try #require(explained["reminders"] as? [[String: Any]])
        #expect(reminders.map { "\($0["at"]!) \($0["rule"]!) \($0["status"]!)" } == [
            "2026-11-30T07:00:00+01:00 remind 2026-11-30T06:00Z planned",
            "2026-11-30T08:00:00+01:00 remind 1h planned",
            "2026-11-30T08:50:00+01:00 before 10m planned",
            "2026-11-30T09:00:00+01:00 due planned",
            "2026-11-30T10:00:00+01:00 nag 1 planned",
            "2026-11-30T11:00:00+01:00 nag 2 planned",
            "2026-11-30T12:00:00+01:00 nag 3 planned",
        ])
        #expect(reminders[2]["why"] as? String == "before = 10m in [reminders]")
        #expect(reminders[0]["why"] as? String == "its own reminder (nudge remind)")
        #expect(reminders[0]["firedAt"] is NSNull)
        // The table says the same.
        let table = try nudge("explain", "1").stdout
        #expect(table.contains("Mon Nov 30 08:50  before 10m"))
    }

    @Test func explainAfterASnoozeShowsWhatItReplaced() throws {
        try nudge("add", "Call", "--due", "today 12:00")
        try nudge("snooze", "1", "--until", "today 14:00")
        let reminders = try #require(try nudge("explain", "1", "--json").object()["reminders"] as? [[String: Any]])
        let statuses = Dictionary(reminders.map { ("\($0["rule"]!)", "\($0["status"]!)") }) { first, _ in first }
        #expect(statuses["before 10m"] == "snoozed")
        #expect(statuses["snooze"] == "planned")
    }

    @Test func remindPrintsTheTodosOwnReminders() throws {
        try nudge("add", "Dentist", "--due", "2026-12-03 15:00")
        let added = try nudge("remind", "1", "--add", "1d", "--add", "2h", "--json").object()
        #expect(added["id"] as? Int == 1)
        #expect(added["title"] as? String == "Dentist")
        #expect(added["defaultReminders"] as? Bool == true)
        let reminders = try #require(added["reminders"] as? [[String: Any]])
        #expect(reminders.map { $0["before"] as? String } == ["1d", "2h"])
        #expect(reminders.map { $0["rule"] as? String } == ["remind 1d", "remind 2h"])
        let listed = try nudge("remind", "1", "--list", "--json").object()
        #expect((listed["reminders"] as? [[String: Any]])?.count == 2)
        let cleared = try nudge("remind", "1", "--clear", "--json").object()
        #expect((cleared["reminders"] as? [Any])?.isEmpty == true)
    }

    @Test func configShowPrintsEverySectionAsTheFileWouldSetIt() throws {
        let path = nudge.folder.file("nudge.conf")
        try "[reminders]\nbefore = 1h, 10m\n[priority.high]\nnag_every = 15m\n[quiet]\nhours = 22:00-07:00\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let config = try nudge("--config", path, "config", "show", "--json").object()
        #expect(config["path"] as? String == path)
        #expect(config["exists"] as? Bool == true)
        let sections = try #require(config["sections"] as? [String: [String: String]])
        #expect(sections["reminders"]?["before"] == "1h, 10m")
        #expect(sections["reminders"]?["at_due"] == "yes")
        #expect(sections["priority.high"] == ["nag_every": "15m"])
        #expect(sections["quiet"]?["hours"] == "22:00-07:00")
        #expect(sections["digest"]?["time"] == "08:00")
        // Every key the text shows, and no other.
        let text = try nudge("--config", path, "config", "show").stdout
        let keys = text.split(separator: "\n").filter { $0.contains(" = ") }.count
        #expect(sections.values.map(\.count).reduce(0, +) == keys)

        // HOME is the test's folder: no ~/.config/nudge/nudge.conf.
        let defaults = try nudge("config", "show", "--json").object()
        #expect(defaults["exists"] as? Bool == false)
    }

    @Test func configShowSaysHowDatesAreWrittenCheckAndPathPrintTheirResult() throws {
        let path = nudge.folder.file("nudge.conf")
        try "[display]\nweek_start = saturday\n[reminders]\nsound = ~/none-here.oga\n".write(toFile: path, atomically: true, encoding: .utf8)
        let shown = try nudge("--config", path, "config", "show", "--json", environment: ["LANG": "en_US.UTF-8"]).object()
        let inEffect = try #require(shown["inEffect"] as? [String: Any])
        #expect(inEffect["locale"] as? String == "en_US.UTF-8")
        #expect(inEffect["weekStart"] as? String == "saturday")
        #expect(inEffect["timeFormat"] as? String == "12h")
        #expect(inEffect["dateFormat"] as? String == "mdy")
        let plain = try nudge("--config", path, "config", "show", "--json", environment: ["LANG": "C"]).object()
        #expect((plain["inEffect"] as? [String: Any])?["dateFormat"] is NSNull)

        let checked = try nudge("--config", path, "config", "check", "--json")
        #expect(checked.status == 0)
        let check = try checked.object()
        #expect(check["valid"] as? Bool == true && check["exists"] as? Bool == true && check["error"] is NSNull)
        #expect((check["warnings"] as? [String])?.first?.contains("none-here.oga does not exist") == true)
        try "[reminders]\nbefore = soon\n".write(toFile: path, atomically: true, encoding: .utf8)
        let refused = try nudge("--config", path, "config", "check", "--json")
        #expect(refused.status == 1)
        let error = try #require(try refused.object()["error"] as? String)
        #expect(refused.stderr == "nudge: " + error + "\n")
        #expect(try refused.object()["valid"] as? Bool == false)

        let where_ = try nudge("--config", path, "config", "path", "--json").object()
        #expect(where_["path"] as? String == path && where_["exists"] as? Bool == true)
    }

    @Test func categoryListCountsTodos() throws {
        try nudge("category", "add", "work", "--icon", "briefcase")
        try nudge("add", "Report", "--category", "work")
        let categories = try nudge("category", "list", "--json").array()
        #expect(categories.count == 1)
        #expect(categories.first?["name"] as? String == "work")
        #expect(categories.first?["icon"] as? String == "briefcase")
        #expect(categories.first?["todos"] as? Int == 1)
    }

    @Test func categoryChangesPrintTheCategory() throws {
        let added = try nudge("category", "add", "work", "--icon", "briefcase", "--json").object()
        #expect(added["name"] as? String == "work" && added["icon"] as? String == "briefcase" && added["todos"] as? Int == 0)
        try nudge("add", "Report", "--category", "work")
        let renamed = try nudge("category", "rename", "work", "Office", "--json").object()
        #expect(renamed["id"] as? Int == added["id"] as? Int)
        #expect(renamed["name"] as? String == "Office" && renamed["todos"] as? Int == 1)
        let deleted = try nudge("category", "delete", "office", "--json").object()
        #expect(deleted["todos"] as? Int == 1)
        #expect(try nudge("category", "list", "--json").array().isEmpty)
    }
}
