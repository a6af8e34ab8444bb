import Testing
@testable import NudgeHelp

struct HelpTextTests {
    @Test func readsParagraphsBulletsAndIndentedLines() {
        let text = """
            Todos are shown in sections,
            by due time.

            The format:
              - headers and key = value lines;
                indentation is ignored;
              - lists are comma-separated.
            Examples:
              nudge list
                nudge list --all

            Last.
            """
        #expect(HelpText.blocks(text) == [
            .paragraph("Todos are shown in sections, by due time."),
            .paragraph("The format:"),
            .bullet("headers and key = value lines; indentation is ignored;"),
            .bullet("lists are comma-separated."),
            .paragraph("Examples:"),
            .literal(["nudge list", "  nudge list --all"]),
            .paragraph("Last."),
        ])
    }

    @Test func entriesWrapUnderTheirMeaning() {
        let entries = [
            HelpEntry("--due", argument: "WHEN", "When it is due, a form of WHEN such as tomorrow 9am or fri"),
            HelpEntry("a-label-longer-than-the-column-is", "Below it"),
        ]
        // The label column is at most 24 wide, so that the meanings keep some room.
        #expect(entries.plainText(width: 60) == """
              --due WHEN                When it is due, a form of WHEN
                                        such as tomorrow 9am or fri
              a-label-longer-than-the-column-is
                                        Below it
            """)
    }

    @Test func aTopicPrintsItsTextEntriesAndNotes() {
        let topic = HelpTopic(name: "when", heading: "WHEN", abstract: "The forms of WHEN", text: "WHEN names a day.",
                              entries: [HelpEntry("today", "Today")], notes: "Case does not matter.")
        #expect(topic.plainText == """
            The forms of WHEN.

            WHEN names a day.

              today  Today

            Case does not matter.
            """)
    }
}
