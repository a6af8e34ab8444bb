import CSystemd
import Dispatch
import Glibc
import NudgePlatform

/// A client of the session bus's notification server, driven by one serial DispatchQueue (the
/// daemon uses the main queue). All callbacks and completions run on that queue, and every
/// method must be called on it.
///
/// The connection costs nothing while idle: a read source on the bus socket wakes the queue
/// only when a message arrives, and a one-shot timer exists only while a call awaits its reply
/// (armed for sd-bus's earliest reply deadline, so a hung server fails the call after about
/// `callTimeout`). Outgoing messages are flushed before a method returns.
///
/// The client subscribes to `ActionInvoked` and `NotificationClosed` from any sender and
/// reports the sender, so the caller can ignore signals from a server that is no longer the
/// owner of `serviceName` (see `serverOwner()` and `onServerChanged`).
public final class NotificationClient {
    public static let serviceName = "org.freedesktop.Notifications"
    static let objectPath = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    /// How long a method call waits for its reply, in microseconds.
    public static let callTimeout: UInt64 = 1_000_000

    /// A button was clicked: the notification's id, the action's key, the signal's sender.
    public var onActionInvoked: ((_ id: UInt32, _ actionKey: String, _ sender: String) -> Void)?
    /// A notification went away, and why. The server also sends it after an action was invoked.
    public var onClosed: ((_ id: UInt32, _ reason: CloseReason, _ sender: String) -> Void)?
    /// NameOwnerChanged for org.freedesktop.Notifications only: the new owner's unique name,
    /// or nil when it went away.
    public var onServerChanged: ((_ newOwner: String?) -> Void)?
    /// The connection to the bus broke (the bus went away). The client is useless after this;
    /// pending calls have failed with org.freedesktop.DBus.Error.NoReply. Make a new client.
    public var onDisconnected: (() -> Void)?

    private let queue: DispatchQueue
    private let bus: OpaquePointer
    private var signalSlots: [OpaquePointer] = []
    private var readSource: DispatchSourceRead?
    private var timeoutTimer: DispatchSourceTimer?
    /// Notify calls that timed out, by cookie, oldest first: a server that hung and woke
    /// answers them after all, and sd-bus hands those replies to no one but a filter.
    private var lateReplies: [(cookie: UInt64, handle: (BusMessage) -> Void)] = []
    /// Beyond this many, the oldest is forgotten: a server that never wakes answers none.
    static let mostLateReplies = 64

    /// Connects to the session bus at `address` (D-Bus address syntax, `unix:path=…`), or when
    /// it is nil to the one named by DBUS_SESSION_BUS_ADDRESS (or $XDG_RUNTIME_DIR/bus),
    /// subscribes to the notification signals and starts watching the connection on `queue`.
    /// The corresponding C functions are `sd_bus_open_user`, and `sd_bus_new`,
    /// `sd_bus_set_address` and `sd_bus_start` for an address.
    public init(queue: DispatchQueue, address: String? = nil) throws(SystemError) {
        try requireSystemd()
        self.queue = queue
        if let address {
            bus = try Self.connect(to: address)
        } else {
            bus = try Self.connectToTheSessionBus()
        }
        // From here on, a throw runs deinit, which frees what was set up so far.
        try subscribe()
        try watch()
    }

    private static func connectToTheSessionBus() throws(SystemError) -> OpaquePointer {
        var bus: OpaquePointer?
        try check(systemd.sd_bus_open_user(&bus))
        guard let bus else { throw SystemError(.ioError) }
        return bus
    }

    /// A bus given by its address need not be the one the environment names: tests connect to
    /// their own without changing the process's environment, which other threads read.
    private static func connect(to address: String) throws(SystemError) -> OpaquePointer {
        var created: OpaquePointer?
        try check(systemd.sd_bus_new(&created))
        guard let bus = created else { throw SystemError(.ioError) }
        do throws(SystemError) {
            try check(systemd.sd_bus_set_address(bus, address))
            try check(systemd.sd_bus_set_bus_client(bus, 1))
            try check(systemd.sd_bus_start(bus))
        } catch {
            _ = systemd.sd_bus_flush_close_unref(bus)
            throw error
        }
        return bus
    }

    /// Why `init` failed, naming the bus it looked for as sd-bus does: "no session bus at
    /// unix:path=/run/user/1000/bus: No such file or directory".
    public static func noBusMessage(_ error: SystemError, environment: [String: String]) -> String {
        // Not the bus: the library that would have looked for it.
        if let library = error.library { return library.description }
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"] {
            // sd-bus takes an empty address as the one to use, and fails.
            if address.isEmpty { return "no session bus: DBUS_SESSION_BUS_ADDRESS is set but empty (\(error))" }
            return "no session bus at \(address): \(error)"
        }
        if let runtime = environment["XDG_RUNTIME_DIR"] {
            return "no session bus at unix:path=\(runtime)/bus: \(error)"
        }
        return "no session bus: neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set (\(error))"
    }

    deinit {
        readSource?.cancel()
        timeoutTimer?.cancel()
        for slot in signalSlots { _ = systemd.sd_bus_slot_unref(slot) }
        // Frees the floating reply slots too, which releases their handlers uncalled.
        _ = systemd.sd_bus_flush_close_unref(bus)
    }

    /// Whether the connection to the bus is still up.
    public var isConnected: Bool {
        systemd.sd_bus_is_open(bus) > 0
    }

    /// Whether a timer is armed, i.e. some call awaits its reply (or messages wait to be
    /// processed). False when idle: then only the bus socket can wake the queue.
    var isWaitingForReply: Bool {
        timeoutTimer != nil
    }

    // MARK: Calls

    /// The unique name (":1.42") owning org.freedesktop.Notifications now, or nil. Waits up to
    /// `callTimeout` for the bus to answer. The corresponding D-Bus call is
    /// org.freedesktop.DBus.GetNameOwner.
    public func serverOwner() -> String? {
        dispatchPrecondition(condition: .onQueue(queue))
        defer { scheduleProcessing() }   // the blocking call may have queued other messages
        var message: OpaquePointer?
        guard systemd.sd_bus_message_new_method_call(bus, &message, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                             "org.freedesktop.DBus", "GetNameOwner") >= 0,
              let message else { return nil }
        defer { _ = systemd.sd_bus_message_unref(message) }
        guard (try? BusMessage(message).append(Self.serviceName)) != nil else { return nil }
        var error = sd_bus_error()
        defer { systemd.sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        guard systemd.sd_bus_call(bus, message, Self.callTimeout, &error, &reply) >= 0, let reply else { return nil }
        defer { _ = systemd.sd_bus_message_unref(reply) }
        return try? BusMessage(reply).readString()
    }

    /// The server's capabilities ("actions", "body", "body-markup", ...). The corresponding
    /// D-Bus call is GetCapabilities.
    public func capabilities(_ completion: @escaping (Result<[String], SystemError>) -> Void) {
        call("GetCapabilities", fill: { _ throws(SystemError) in }, completion: completion) { reply throws(SystemError) in
            try reply.readStrings()
        }
    }

    /// Shows `notification`; the completion gets its id (the same as `replacesID` when that
    /// notification was still shown), or the error: its `name` is e.g.
    /// "org.freedesktop.DBus.Error.ServiceUnknown" when no server runs (and none can be
    /// activated), or "org.freedesktop.DBus.Error.NoReply" (code ETIMEDOUT, message "Method
    /// call timed out") when the server did not answer within `callTimeout`. A server that
    /// answers after that has shown the notification after all: `late` gets its id then. The
    /// corresponding D-Bus call is Notify.
    public func notify(_ notification: DesktopNotification, late: ((UInt32) -> Void)? = nil,
                       _ completion: @escaping (Result<UInt32, SystemError>) -> Void) {
        let lateReply = late.map { late in { (reply: BusMessage) in if let id = try? reply.readUInt32() { late(id) } } }
        call("Notify", late: lateReply, fill: { message throws(SystemError) in
            try message.append(notification.appName)
            try message.append(notification.replacesID)
            try message.append(notification.icon)
            try message.append(notification.summary)
            try message.append(notification.body)
            try message.append(notification.actions.flatMap { [$0.key, $0.label] })
            try message.open("a", "{sv}")
            try message.appendEntry("urgency", byte: notification.urgency.rawValue)
            if let category = notification.category {
                try message.appendEntry("category", string: category)
            }
            if let desktopEntry = notification.desktopEntry {
                try message.appendEntry("desktop-entry", string: desktopEntry)
            }
            switch notification.sound {
            case .name(let name)?: try message.appendEntry("sound-name", string: name)
            case .file(let path)?: try message.appendEntry("sound-file", string: path)
            case .silent?: try message.appendEntry("suppress-sound", bool: true)
            case nil: break
            }
            if notification.resident {
                try message.appendEntry("resident", bool: true)
            }
            try message.close()
            try message.append(notification.expireTimeout)
        }, completion: completion) { reply throws(SystemError) in
            try reply.readUInt32()
        }
    }

    /// Closes a shown notification; the server answers with NotificationClosed (reason 3).
    /// Fire and forget: no reply is asked for. The corresponding D-Bus call is
    /// CloseNotification.
    public func close(id: UInt32) {
        dispatchPrecondition(condition: .onQueue(queue))
        var message: OpaquePointer?
        guard systemd.sd_bus_message_new_method_call(bus, &message, Self.serviceName, Self.objectPath,
                                             Self.interface, "CloseNotification") >= 0,
              let message else { return }
        defer { _ = systemd.sd_bus_message_unref(message) }
        guard (try? BusMessage(message).append(id)) != nil,
              systemd.sd_bus_message_set_expect_reply(message, 0) >= 0 else { return }
        _ = systemd.sd_bus_send(bus, message, nil)
        _ = systemd.sd_bus_flush(bus)
    }

    /// Builds a method call to the notification server, sends it and hands the parsed reply
    /// (or the error) to `completion` on the queue; a reply after the call timed out goes to
    /// `late`.
    private func call<Value>(_ member: String, late: ((BusMessage) -> Void)? = nil,
                             fill: (BusMessage) throws(SystemError) -> Void,
                             completion: @escaping (Result<Value, SystemError>) -> Void,
                             parse: @escaping (BusMessage) throws(SystemError) -> Value) {
        dispatchPrecondition(condition: .onQueue(queue))
        do throws(SystemError) {
            var message: OpaquePointer?
            try check(systemd.sd_bus_message_new_method_call(bus, &message, Self.serviceName, Self.objectPath,
                                                             Self.interface, member))
            guard let message else { throw SystemError(.ioError) }
            defer { _ = systemd.sd_bus_message_unref(message) }
            try fill(BusMessage(message))
            // Set once sent: the call seals the message and numbers it.
            var cookie: UInt64 = 0
            try callAsync(message) { [unowned self] reply in
                if let error = reply.error {
                    if let late, error.code == ETIMEDOUT, cookie != 0 { awaitLateReply(cookie, late) }
                    completion(.failure(error))
                } else {
                    do throws(SystemError) {
                        completion(.success(try parse(reply)))
                    } catch {
                        completion(.failure(error))
                    }
                }
            }
            _ = systemd.sd_bus_message_get_cookie(message, &cookie)
        } catch {
            // Report even this failure later, on the queue, as every other outcome.
            let failure = QueuedCallback { completion(.failure(error)) }
            queue.async { failure.run() }
        }
    }

    /// Sends `message` with a reply callback in a floating slot, which sd-bus frees after the
    /// reply, the timeout or the connection's end; the slot's destroy callback releases the
    /// handler. The corresponding C function is `sd_bus_call_async`.
    private func callAsync(_ message: OpaquePointer, _ handle: @escaping (BusMessage) -> Void) throws(SystemError) {
        let handler = Unmanaged.passRetained(ReplyHandler(handle)).toOpaque()
        var slot: OpaquePointer?
        let r = systemd.sd_bus_call_async(bus, &slot, message, { reply, userdata, _ in
            guard let reply, let userdata else { return 0 }
            Unmanaged<ReplyHandler>.fromOpaque(userdata).takeUnretainedValue().handle(BusMessage(reply))
            return 0
        }, handler, Self.callTimeout)
        guard r >= 0, let slot else {
            Unmanaged<ReplyHandler>.fromOpaque(handler).release()
            throw r < 0 ? SystemError(code: -r) : SystemError(.ioError)
        }
        _ = systemd.sd_bus_slot_set_destroy_callback(slot) { userdata in
            if let userdata { Unmanaged<ReplyHandler>.fromOpaque(userdata).release() }
        }
        _ = systemd.sd_bus_slot_set_floating(slot, 1)
        _ = systemd.sd_bus_slot_unref(slot)
        _ = systemd.sd_bus_flush(bus)
        armTimeout()
    }

    private func awaitLateReply(_ cookie: UInt64, _ handle: @escaping (BusMessage) -> Void) {
        lateReplies.append((cookie, handle))
        if lateReplies.count > Self.mostLateReplies { lateReplies.removeFirst() }
    }

    /// A reply no pending call waits for: one to a call that timed out, or nothing of ours.
    private func unclaimedMessage(_ message: BusMessage) {
        guard !lateReplies.isEmpty else { return }
        var type: UInt8 = 0, cookie: UInt64 = 0
        guard systemd.sd_bus_message_get_type(message.pointer, &type) >= 0, type == UInt8(SD_BUS_MESSAGE_METHOD_RETURN),
              systemd.sd_bus_message_get_reply_cookie(message.pointer, &cookie) >= 0,
              let index = lateReplies.firstIndex(where: { $0.cookie == cookie }) else { return }
        lateReplies.remove(at: index).handle(message)
    }

    // MARK: Signals

    /// The corresponding C functions are `sd_bus_match_signal`, `sd_bus_add_filter` and
    /// `sd_bus_add_match`.
    private func subscribe() throws(SystemError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try keepSlot { slot in
            systemd.sd_bus_match_signal(bus, slot, nil, Self.objectPath, Self.interface, "ActionInvoked", { message, userdata, _ in
                NotificationClient.deliver(message, userdata, to: NotificationClient.actionInvoked)
            }, me)
        }
        try keepSlot { slot in
            systemd.sd_bus_match_signal(bus, slot, nil, Self.objectPath, Self.interface, "NotificationClosed", { message, userdata, _ in
                NotificationClient.deliver(message, userdata, to: NotificationClient.notificationClosed)
            }, me)
        }
        // Sees what no reply slot or match took, which includes replies to timed-out calls.
        try keepSlot { slot in
            systemd.sd_bus_add_filter(bus, slot, { message, userdata, _ in
                NotificationClient.deliver(message, userdata, to: NotificationClient.unclaimedMessage)
            }, me)
        }
        let match = "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0='\(Self.serviceName)'"
        try keepSlot { slot in
            systemd.sd_bus_add_match(bus, slot, match, { message, userdata, _ in
                NotificationClient.deliver(message, userdata, to: NotificationClient.nameOwnerChanged)
            }, me)
        }
    }

    /// Adds a match or filter with `add`, which fills in its slot, and keeps the slot until
    /// `deinit`.
    private func keepSlot(_ add: (UnsafeMutablePointer<OpaquePointer?>) -> Int32) throws(SystemError) {
        var slot: OpaquePointer?
        try check(add(&slot))
        if let slot { signalSlots.append(slot) }
    }

    /// Hands a message from a match or filter to `handler` of the client `userdata` points to.
    private static func deliver(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                                to handler: (NotificationClient) -> (BusMessage) -> Void) -> Int32 {
        guard let message, let userdata else { return 0 }
        handler(Unmanaged<NotificationClient>.fromOpaque(userdata).takeUnretainedValue())(BusMessage(message))
        return 0
    }

    private func actionInvoked(_ message: BusMessage) {
        guard let id = try? message.readUInt32(), let key = try? message.readString() else { return }
        onActionInvoked?(id, key, message.sender)
    }

    private func notificationClosed(_ message: BusMessage) {
        guard let id = try? message.readUInt32(), let reason = try? message.readUInt32() else { return }
        onClosed?(id, CloseReason(code: reason), message.sender)
    }

    private func nameOwnerChanged(_ message: BusMessage) {
        guard let name = try? message.readString(), name == Self.serviceName,
              (try? message.readString()) != nil, let newOwner = try? message.readString() else { return }
        onServerChanged?(newOwner.isEmpty ? nil : newOwner)
    }

    // MARK: Dispatch integration

    /// Starts a read source on a duplicate of the bus socket: sd-bus closes its own descriptor
    /// when the connection ends, and the duplicate keeps the number from being reused under
    /// the source until the source is cancelled. The corresponding C function is
    /// `sd_bus_get_fd`.
    private func watch() throws(SystemError) {
        let busDescriptor = FileDescriptor(rawValue: try check(systemd.sd_bus_get_fd(bus)))
        let descriptor: FileDescriptor
        do throws(Errno) { descriptor = try busDescriptor.duplicate() } catch {
            throw SystemError(error)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor.rawValue, queue: queue)
        source.setEventHandler { [weak self] in self?.process() }
        source.setCancelHandler { try? descriptor.close() }
        readSource = source
        source.resume()
        // The subscriptions above waited for replies and may have read other messages already.
        scheduleProcessing()
    }

    /// Handles everything sd-bus has to do now: messages waiting on the socket or already
    /// read, expired reply timeouts, the end of the connection. Then flushes and re-arms the
    /// timeout timer. The corresponding C function is `sd_bus_process`.
    private func process() {
        while true {
            let r = systemd.sd_bus_process(bus, nil)
            if r <= 0 { break }
        }
        guard systemd.sd_bus_is_open(bus) > 0 else {
            disconnected()
            return
        }
        _ = systemd.sd_bus_flush(bus)
        armTimeout()
    }

    /// Processes on the queue soon, for messages a blocking call left in sd-bus's read queue
    /// (the socket is no longer readable for them): sd-bus reports a timeout of 0 then.
    private func scheduleProcessing() {
        armTimeout()
    }

    /// Arms a one-shot timer for sd-bus's next deadline (the earliest pending reply's timeout,
    /// or now when messages are queued), or none when there is nothing to wait for. The
    /// corresponding C function is `sd_bus_get_timeout`, whose answer is absolute
    /// CLOCK_MONOTONIC microseconds.
    private func armTimeout() {
        timeoutTimer?.cancel()
        timeoutTimer = nil
        var deadline: UInt64 = 0
        guard systemd.sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
        let delay = deadline > nowMicroseconds ? deadline - nowMicroseconds : 0
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // Round up by a millisecond so the timer never fires just before sd-bus's deadline.
        timer.schedule(deadline: .now() + .microseconds(Int(min(delay, UInt64(Int32.max))) + (delay > 0 ? 1_000 : 0)),
                       leeway: .milliseconds(5))
        timer.setEventHandler { [weak self] in self?.process() }
        timer.resume()
        timeoutTimer = timer
    }

    private func disconnected() {
        readSource?.cancel()
        readSource = nil
        timeoutTimer?.cancel()
        timeoutTimer = nil
        onDisconnected?()
    }
}

/// A reply callback kept alive by an sd-bus slot's userdata.
private final class ReplyHandler {
    let handle: (BusMessage) -> Void

    init(_ handle: @escaping (BusMessage) -> Void) {
        self.handle = handle
    }
}

/// A callback for `DispatchQueue.async`, which demands a Sendable closure. Unchecked, and safe:
/// it is made in `call`, whose `dispatchPrecondition` holds it to the client's serial queue,
/// and is run by a block on that same queue, so its closure never runs on another thread.
private struct QueuedCallback: @unchecked Sendable {
    let run: () -> Void
}
