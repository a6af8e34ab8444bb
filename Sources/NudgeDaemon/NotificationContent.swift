import Foundation
import NudgeCore
import NudgeStore

/// What one notification says, before it becomes a D-Bus call.
struct NotificationContent: Equatable {
    enum Urgency: UInt8 { case low = 0, normal = 1, critical = 2 }

    var summary: String
    var body: String
    var icon: String
    var urgency: Urgency
    /// (key, label) pairs: "done", and "snooze-N" for the Nth snooze choice.
    var actions: [Action]
    /// What it plays; nil leaves it to the server.
    var sound: Sound? = nil
    /// The Notify call's `expire_timeout`: -1 is the server's, 0 never expires.
    var expireTimeout: Int32 = -1
    /// Asks the server to keep it, buttons and all, after an action.
    var resident = false

    struct Action: Equatable {
        let key: String
        let label: String
    }

    enum Sound: Equatable {
        /// A freedesktop sound theme name.
        case name(String)
        /// An absolute path.
        case file(String)
        /// Nothing, not even the server's own sound.
        case silent
    }
}

/// Writes notifications for deliveries, as of a moment, in a zone.
struct NotificationWriter {
    let now: Date
    let zone: TimeZone
    let config: NudgeConfig
    let style: DateStyle
    /// The quote of the day, which ends the digest.
    var quote: String?
    /// The home folder, for a `sound` file written `~/...`.
    var home: String
    /// A reminder's todo's subtasks, said under its due when it has any.
    var subtaskProgress: SubtaskProgress?

    init(now: Date, zone: TimeZone, config: NudgeConfig, style: DateStyle, quote: String? = nil, home: String = "") {
        self.now = now
        self.zone = zone
        self.config = config
        self.style = style
        self.quote = quote
        self.home = home
    }

    static let doneKey = "done"
    static let snoozePrefix = "snooze-"
    /// Lines of notes shown under a reminder, and the characters of each: a line of 100 KB
    /// held dunst for ten seconds, past the next reminder's call.
    static let noteLines = 3
    static let noteLineLength = 200

    func content(for delivery: Delivery, todos: [Todo]) -> NotificationContent {
        var content = text(for: delivery, todos: todos)
        if isQuiet(delivery, todos: todos) { content.sound = .silent }
        return content
    }

    private func text(for delivery: Delivery, todos: [Todo]) -> NotificationContent {
        switch delivery.kind {
        case .reminder:
            guard let todo = todos.first else { return gone() }
            return reminder(todo, rule: delivery.rule)
        case .group:
            return alerting(list("\(todos.count) todos due", todos: todos), todos: todos)
        case .catchUp:
            let why = delivery.rule == Batcher.heldRule ? "Came due while blocked" : "Missed while Nudge was not running"
            return alerting(list("\(why): \(todos.count) todo\(todos.count == 1 ? "" : "s")", todos: todos), todos: todos)
        case .digest:
            let agenda = Agenda(now: now, zone: zone)
            let overdue = todos.filter(agenda.isOverdue)
            let dueToday = todos.filter { agenda.section(of: $0) == .today }
            var parts: [String] = []
            if !overdue.isEmpty { parts.append("\(overdue.count) overdue") }
            if !dueToday.isEmpty { parts.append("\(dueToday.count) due today") }
            var digest = list("Nudge: " + (parts.isEmpty ? "nothing due" : parts.joined(separator: ", ")), todos: overdue + dueToday)
            if let quote {
                digest.body += (digest.body.isEmpty ? "" : "\n\n") + quote
            }
            return digest
        }
    }

    func reminder(_ todo: Todo, rule: String) -> NotificationContent {
        var lines = [dueLine(todo)]
        if let progress = subtaskProgress, progress.total > 0 { lines.append("\(progress.done) of \(progress.total) done") }
        if let notes = todo.notes {
            lines += notes.split(separator: "\n", omittingEmptySubsequences: false).prefix(Self.noteLines).map { line in
                line.count > Self.noteLineLength ? line.prefix(Self.noteLineLength - 1) + "…" : String(line)
            }
        }
        // A choice that has passed ("tonight" after 20:00) is not offered; the keys keep the
        // choices' places in the config, which is what a press is read by.
        let ends = SnoozeEnd(now: now, zone: zone, style: style, allDayTime: config.reminders.allDayTime)
        let actions = [NotificationContent.Action(key: Self.doneKey, label: "Done")]
            + config.snooze.choices.enumerated().compactMap { index, choice in
                ends.end(of: choice) == nil ? nil
                    : NotificationContent.Action(key: Self.snoozePrefix + String(index), label: Self.label(choice))
            }
        var content = NotificationContent(summary: todo.title, body: lines.joined(separator: "\n"),
                                          icon: todo.category?.icon ?? Category.defaultIcon,
                                          urgency: urgency(todo.priority), actions: actions)
        let alerts = config.alerts(for: todo)
        let nag = ReminderRule.nagNumber(rule)
        if alerts.escalates(nag: nag) { content.urgency = .critical }
        content.sound = sound(alerts.sound(nag: nag))
        content.expireTimeout = alerts.timeout.expireMilliseconds
        content.resident = alerts.resident
        return content
    }

    /// A grouped notification sounds and stays as its most urgent todo's first reminder would.
    private func alerting(_ list: NotificationContent, todos: [Todo]) -> NotificationContent {
        guard let first = todos.min(by: { $0.priority > $1.priority }) else { return list }
        let alerts = config.alerts(for: first)
        var content = list
        content.sound = sound(alerts.sound)
        content.expireTimeout = alerts.timeout.expireMilliseconds
        return content
    }

    private func sound(_ sound: ReminderSound) -> NotificationContent.Sound {
        switch sound {
        case .none: .silent
        case .name(let name): .name(name)
        case .file(let path): .file(path.hasPrefix("~/") ? home + path.dropFirst(1) : path)
        }
    }

    /// Quiet hours silence what they let through (high priority, the digest) and what they
    /// held back, which comes due exactly at their end. The store does not keep why a
    /// reminder falls there, so any reminder at that minute is silent but a todo's due time.
    func isQuiet(_ delivery: Delivery, todos: [Todo]) -> Bool {
        isQuiet(at: delivery.dueAt, rule: delivery.kind == .reminder ? delivery.rule : nil, todo: todos.first)
    }

    /// Whether a reminder due `at` is silenced; `rule`: a single todo's reminder's, nil for
    /// the other notifications.
    func isQuiet(at dueAt: Date, rule: String?, todo: Todo?) -> Bool {
        guard let quiet = config.quietHours else { return false }
        let clock = WallClock(zone: zone)
        let current = clock.time(of: now)
        if let time = TimeOfDay(hour: current.hour, minute: current.minute), quiet.contains(time) { return true }
        let due = clock.time(of: dueAt)
        guard due.second == 0, TimeOfDay(hour: due.hour, minute: due.minute) == quiet.end else { return false }
        if rule == ReminderRule.due.description, case .at(let instant, _)? = todo?.due, instant == dueAt {
            return false
        }
        return true
    }

    private func list(_ summary: String, todos: [Todo]) -> NotificationContent {
        let shown = todos.prefix(8).map { todo in "• " + todo.title + (todo.due == nil ? "" : " — " + dueLine(todo)) }
        let more = todos.count > 8 ? ["and \(todos.count - 8) more"] : []
        let urgent = todos.contains { $0.priority == .high }
        return NotificationContent(summary: summary, body: (shown + more).joined(separator: "\n"), icon: Category.defaultIcon,
                                   urgency: urgent ? .critical : .normal, actions: [])
    }

    private func gone() -> NotificationContent {
        NotificationContent(summary: "A todo was deleted", body: "", icon: Category.defaultIcon, urgency: .low, actions: [])
    }

    private func urgency(_ priority: Priority) -> NotificationContent.Urgency {
        switch priority {
        case .high: .critical
        case .medium: .normal
        case .low: .low
        }
    }

    /// "due in 15 min", "due now", "due at 18:00", "due tomorrow at 09:00", "overdue since 09:00",
    /// "due today", "overdue since yesterday".
    func dueLine(_ todo: Todo) -> String {
        guard let due = todo.due else { return "no due date" }
        let text = DueText(now: now, zone: zone, style: style)
        let clock = text.clock
        switch due {
        case .allDay(let day):
            let distance = text.today.days(until: day)
            if distance == 0 { return "due today" }
            if distance > 0 { return "due " + Self.phrase(text.relative(day)) }
            return "overdue since " + Self.phrase(text.relative(day))
        case .at(let instant, _):
            // Reminders fire a moment after their time: "1 minute before" is 59.99 s before.
            let minutes = Int((instant.timeIntervalSince(now) / 60).rounded())
            let seconds = Double(minutes * 60)
            let (day, hour, minute) = clock.dayAndTime(of: instant)
            let time = text.time(hour: hour, minute: minute)
            let sameDay = day == text.today
            if minutes == 0 { return "due now" }
            if seconds > 0 {
                if seconds < 3600 { return "due in \(minutes) min" }
                if seconds < 3 * 3600 { return "due in \(Self.hours(seconds))" }
                return sameDay ? "due at \(time)" : "due " + Self.phrase(text.relative(day)) + " at " + time
            }
            if sameDay { return "overdue since \(time)" }
            return "overdue since " + Self.phrase(text.relative(day)) + " " + time
        }
    }

    /// "Tomorrow" reads "tomorrow" inside a sentence; "Fri" and "Dec 24" stay as they are.
    static func phrase(_ day: String) -> String {
        ["Today", "Tomorrow", "Yesterday"].contains(day) ? day.lowercased() : day
    }

    static func hours(_ seconds: TimeInterval) -> String {
        let minutes = Int((seconds / 60).rounded())
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// "Snooze 10 min", "Snooze 1 h", "Snooze 2 days", "Tomorrow 9:00".
    static func label(_ choice: SnoozeChoice) -> String {
        switch choice {
        case .span(let span):
            var parts: [String] = []
            if span.days % 7 == 0 && span.days > 0 && span.seconds == 0 {
                parts.append(span.days == 7 ? "1 week" : "\(span.days / 7) weeks")
            } else if span.days > 0 {
                parts.append(span.days == 1 ? "1 day" : "\(span.days) days")
            }
            if span.seconds >= 3600 { parts.append("\(span.seconds / 3600) h") }
            if span.seconds % 3600 >= 60 { parts.append("\(span.seconds % 3600 / 60) min") }
            return "Snooze " + parts.joined(separator: " ")
        case .when(let text):
            // "tomorrow 09:00" reads as "Tomorrow 9:00".
            let words = text.split(separator: " ").map { word in
                word.count == 5 && word.hasPrefix("0") && word.contains(":") ? String(word.dropFirst()) : String(word)
            }
            return words.joined(separator: " ").uppercasedFirst
        }
    }
}

extension String {
    var uppercasedFirst: String { prefix(1).uppercased() + dropFirst() }
}
