import Foundation
import Testing
@testable import NudgeCore

struct TodoTests {
    @Test func titleIsTrimmedButOtherwiseKeptExactly() throws {
        #expect(try Todo.validatedTitle("  Buy milk \n") == "Buy milk")
        #expect(try Todo.validatedTitle("<b>Tom & Jerry</b> <3") == "<b>Tom & Jerry</b> <3")
        #expect(try Todo.validatedTitle("line one\nline two 😀") == "line one\nline two 😀")
    }

    @Test(arguments: ["", "   ", "\n\t", "\u{00A0}"])
    func blankTitlesAreRefused(title: String) {
        #expect(throws: InputError.self) { try Todo.validatedTitle(title) }
    }

    @Test func overlongTitlesAreRefused() throws {
        #expect(try Todo.validatedTitle(String(repeating: "a", count: 1000)).count == 1000)
        #expect(throws: InputError.self) { try Todo.validatedTitle(String(repeating: "a", count: 1001)) }
    }

    @Test func priorityNames() {
        #expect(Priority(name: "HIGH") == .high)
        #expect(Priority(name: "l") == .low)
        #expect(Priority(name: "urgent") == nil)
        #expect(Priority.allCases.map(\.description) == ["low", "medium", "high"])
    }

    @Test func localDatesValidateAndCount() {
        #expect(LocalDate(year: 2026, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2028, month: 2, day: 29) != nil)
        #expect(LocalDate(iso: "2026-12-24")?.description == "2026-12-24")
        #expect(LocalDate(year: 987, month: 3, day: 5)?.description == "0987-03-05")
        #expect(LocalDate(year: 1, month: 1, day: 1)?.description == "0001-01-01")
        #expect(LocalDate(iso: "2026-12-4") == nil)
        let day = LocalDate(year: 2026, month: 12, day: 31)!
        #expect(day.adding(days: 1) == LocalDate(year: 2027, month: 1, day: 1))
        #expect(day.isoWeekday == 4) // a Thursday
        #expect(LocalDate(year: 2026, month: 11, day: 29)!.isoWeekday == 7)
        #expect(LocalDate(year: 2024, month: 3, day: 1)!.days(until: LocalDate(year: 2024, month: 2, day: 28)!) == -2)
    }
}

struct SeriesStartTests {
    @Test("a series keeps the time its first due was meant at", arguments: [
        // Berlin's spring-forward day: 02:30 was placed at 03:30.
        ("2027-03-28T03:30:00+02:00", "02:30", "2027-03-28T02:30"),
        ("2027-03-28T03:30:00+02:00", "03:30", "2027-03-28T03:30"),
        // A time the due is not at on its day is not kept.
        ("2027-03-28T03:30:00+02:00", "09:00", "2027-03-28T03:30"),
        ("2027-03-29T02:30:00+02:00", "03:30", "2027-03-29T02:30"),
        ("2026-11-29T10:53:00+01:00", nil, "2026-11-29T10:53"),
    ] as [(String, String?, String)])
    func keepsTheMeantTime(due: String, wallTime: String?, expected: String) {
        #expect(SeriesStart(at(due), wallTime: wallTime.flatMap { TimeOfDay(parsing: $0) }).description == expected)
    }
}
