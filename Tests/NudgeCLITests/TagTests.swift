import Foundation
import Testing
@testable import NudgeTestSupport

/// Tags: `+NAME` and `--tag` on add, `+NAME -NAME` on edit and list, shown in list, show,
/// explain and `--json`, carried by Nudge's JSON export and import.
struct TagTests {
    let nudge = Nudge()

    @Test func addTakesTagWordsAndTagOptionsAndJSONListsThemAsTyped() throws {
        let added = try nudge("add", "Call", "bank", "+money", "+Phone", "--tag", "work-2026", "--tag", "+MONEY")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Added 1: Call bank (+money +Phone +work-2026)\n")
        #expect(try nudge("show", "1", "--json").object()["tags"] as? [String] == ["money", "Phone", "work-2026"])
        #expect(try nudge("list", "--json").array().first?["tags"] as? [String] == ["money", "Phone", "work-2026"])
        #expect(try nudge("explain", "1", "--json").object()["tags"] as? [String] == ["money", "Phone", "work-2026"])
        try nudge("add", "Untagged")
        #expect(try nudge("show", "2", "--json").object()["tags"] as? [String] == [])
    }

    @Test func lettersOfAnyScriptAndTheirMarksMakeATag() throws {
        let run = try nudge("add", "Trip", "+Straße", "+日本", "+हिन्दी", "+Ελλάδα", "+x_1")
        #expect(run.status == 0, "\(run.stderr)")
        // Matched without regard to case, by the Unicode lower case of the composed form.
        let listed = try nudge("list", "+STRAßE", "+ΕΛΛΆΔΑ", "--json").array()
        #expect(listed.map { $0["title"] as? String } == ["Trip"])
        let decomposed = try nudge("list", "+Ελλα\u{301}δα", "--json").array()
        #expect(decomposed.count == 1)
        let list = try nudge("list").stdout
        #expect(list.contains("!!   +Straße +日本 +हिन्दी +Ελλάδα +x_1\n"), "\(list)")
    }

    @Test func aTagKeepsTheSpellingItWasFirstTypedWith() throws {
        try nudge("add", "One", "+Money")
        try nudge("add", "Two", "+MONEY")
        #expect(try nudge("show", "2", "--json").object()["tags"] as? [String] == ["Money"])
    }

    @Test func listFiltersByEveryPlusTagAndNoMinusTag() throws {
        try nudge("add", "Call bank", "+money", "+phone")
        try nudge("add", "Pay rent", "+money")
        try nudge("add", "Call mum", "+phone")
        try nudge("add", "Nothing")
        func titles(_ words: String...) throws -> [String] {
            try nudge.run(["list", "--json"] + words).array().compactMap { $0["title"] as? String }
        }
        #expect(try titles("+money") == ["Call bank", "Pay rent"])
        #expect(try titles("+MONEY", "-phone") == ["Pay rent"])
        #expect(try titles("-money") == ["Call mum", "Nothing"])
        #expect(try titles("+money", "+phone") == ["Call bank"])
        #expect(try titles("--tag", "phone", "--all") == ["Call bank", "Call mum"])
        #expect(try titles("+unknown") == [])
        #expect(try nudge("list", "+unknown").stdout == "No todos match.\n")
        // The terminal list shows the tags after the category column.
        let list = try nudge("list", "+money").stdout
        #expect(list.contains("!!   +money +phone\n"), "\(list)")
    }

    @Test func editAddsAndRemovesTagsIgnoringCase() throws {
        try nudge("category", "add", "home")
        try nudge("add", "Call bank", "+money", "+phone", "--category", "home")
        let edited = try nudge("edit", "1", "-PHONE", "+urgent", "--untag", "money")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout == "Updated 1: Call bank\n  tags     +money +phone → +urgent\n")
        #expect(try nudge("show", "1", "--json").object()["tags"] as? [String] == ["urgent"])
        #expect(try nudge("edit", "1", "+Urgent").stdout == "Nothing changed for 1: Call bank\n")
        let show = try nudge("show", "1").stdout
        #expect(show.contains("  Tags      +urgent\n"), "\(show)")
        #expect(try nudge("explain", "1").stdout.contains("  Tags      +urgent\n"))
        #expect(try nudge("list").stdout.contains("!!   home +urgent\n"))
    }

    @Test(arguments: [
        (["add", "x", "+"], "'+' names no tag"),
        (["add", "x", "+a/b"], "'+a/b' is not a tag: it holds '/'"),
        (["add", "x", "+a b"], "'+a b' is not a tag: it holds a space"),
        (["add", "x", "--tag", "a,b"], "'a,b' is not a tag: it holds ','"),
        (["add", "x", "+" + String(repeating: "a", count: 65)], "a tag is at most 64 characters"),
        (["add", "x", "+-a"], "'+-a' is not a tag: a tag starts with a letter, a digit or _"),
        (["add", "x", "+\u{1F600}"], "'+\u{1F600}' is not a tag: it holds U+1F600"),
        (["list", "+a.b"], "'+a.b' is not a tag: it holds '.'"),
        (["edit", "1", "-a:b"], "'-a:b' is not a tag: it holds ':'"),
    ])
    func aBadTagIsOneLineAndStoresNothing(_ words: [String], message: String) throws {
        try nudge("add", "Keep", "+kept")
        let before = try nudge("export").stdout
        let run = try nudge.run(words)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("nudge: " + message), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        #expect(try nudge("export").stdout == before)
    }

    @Test func sixtyFourCharactersMakeATagAndATitleAfterDashesMayStartWithPlus() throws {
        let long = String(repeating: "ä", count: 64)
        #expect(try nudge("add", "x", "+" + long).status == 0)
        #expect(try nudge("add", "--", "+1", "for", "this").stdout == "Added 2: +1 for this\n")
        #expect(try nudge("show", "2", "--json").object()["tags"] as? [String] == [])
    }

    @Test func nudgeJSONCarriesTagsBothWaysAndAFileWithoutThemKeepsTheStoredOnes() throws {
        try nudge("add", "Call bank", "+money", "+Phone")
        let exported = try nudge("export").stdout
        #expect(try nudge("export").array().first?["tags"] as? [String] == ["money", "Phone"])
        let other = Nudge()
        #expect(try other("import", "-", input: exported).status == 0)
        #expect(try other("show", "1", "--json").object()["tags"] as? [String] == ["money", "Phone"])
        #expect(try other("export").stdout == exported)
        // A later version of the todo that says nothing of tags (an older Nudge's file).
        var item = try nudge("export").array()[0]
        item.removeValue(forKey: "tags")
        item["title"] = "Call the bank"
        item["updatedAt"] = "2026-11-30T09:00:00+00:00"
        let file = String(decoding: try JSONSerialization.data(withJSONObject: [item]), as: UTF8.self)
        #expect(try other("import", "-", input: file).status == 0)
        let after = try other("show", "1", "--json").object()
        #expect(after["title"] as? String == "Call the bank")
        #expect(after["tags"] as? [String] == ["money", "Phone"])
        // A bad tag in a file is refused, naming the field.
        item["tags"] = ["ok", "not ok"]
        item["updatedAt"] = "2026-12-01T09:00:00+00:00"
        let bad = try other("import", "-", input: String(decoding: try JSONSerialization.data(withJSONObject: [item]), as: UTF8.self))
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("tags"), "\(bad.stderr)")
        #expect(try other("show", "1", "--json").object()["tags"] as? [String] == ["money", "Phone"])
    }
}
