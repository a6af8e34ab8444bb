import NudgeStore

/// Some notification servers (dunst) send a notification's ActionInvoked and
/// NotificationClosed only to the connection that showed it, not to everyone listening: after
/// a restart of the service, the buttons of what it showed before would reach no one. So what
/// the same server still shows is shown again at the start, in its own place (replaces_id) and
/// silently, which makes this connection the one the server answers.
///
/// The server cannot be asked what it still shows: one closed while the service was not
/// running (and stored as shown) comes back once, as the todo's next reminder would.
extension NotificationDelivery {
    func reclaimShown(server: String, markup: Bool) {
        let deliveries = toReclaim
        toReclaim = []
        for delivery in deliveries {
            guard let id = delivery.notificationID,
                  let written = try? write(delivery, server: server, at: context.now) else { continue }
            var content = written.content
            content.sound = .silent
            // Late, it is shown in place all the same.
            context.environment.server.show(content, replacing: id, markup: markup, late: { _ in }) { [unowned self] result in
                // A server that ignores replaces_id shows it under a new id.
                guard case .success(let shownAs) = result, shownAs != id, owner == server else { return }
                try? context.store.markShown(delivery.id, server: server, notificationID: shownAs, at: context.now)
            }
        }
    }
}
