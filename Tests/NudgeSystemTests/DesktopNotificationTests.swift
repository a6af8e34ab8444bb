import NudgeSystem
import Testing

struct DesktopNotificationTests {
    @Test func markupEscapingWritesEntitiesForMarkupCharacters() {
        #expect(DesktopNotification.markupEscaped(#"Tom & Jerry <3 "x" 'y' >"#)
                == "Tom &amp; Jerry &lt;3 &quot;x&quot; &apos;y&apos; &gt;")
        #expect(DesktopNotification.markupEscaped("plain text") == "plain text")
    }

    /// A markup parser reads code points: a combining mark after `<` does not hide it.
    @Test func aMarkupCharacterWithACombiningMarkIsStillEscaped() {
        #expect(DesktopNotification.markupEscaped("<\u{301}b>") == "&lt;\u{301}b&gt;")
    }

    @Test func defaultsSuitAReminder() {
        let notification = DesktopNotification(summary: "Buy milk")
        #expect(notification.appName == "Nudge")
        #expect(notification.urgency == .normal)
        #expect(notification.replacesID == 0)
        #expect(notification.expireTimeout == -1)
        #expect(notification.actions.isEmpty)
        #expect(notification.category == nil && notification.desktopEntry == nil)
    }
}
