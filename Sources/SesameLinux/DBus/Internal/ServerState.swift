import CSesameLinux
import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Everything of a serving connection that lives on its bus thread: the
/// connection, the calls awaiting a reply, the callers' credentials. Never
/// shared; sd-bus's callbacks reach it through `Unmanaged` userdata.
final class ServerState {
    struct Peer {
        var uid: UInt32
        var pid: Int32
        /// Read at the peer's first served call and kept: the app is the
        /// connection's, and a later exec in its process does not change it.
        var app: AppIdentity?
        var appResolved = false
        /// When the connection was known to exist, kept from the first call
        /// (where to ask its process is judged by it too).
        var connectedBy: UInt64 = 0
    }

    private(set) var bus: OpaquePointer?
    var uniqueName = ""
    let thread: ServerThread
    /// The only uid served (SPEC D10: the owner's session bus, the owner only).
    let servedUID: UInt32
    var handler: (@Sendable (DBusRequest) async -> DBusReply)?
    var peerVanished: (@Sendable (String) -> Void)?
    var nameLost: (@Sendable (String) -> Void)?
    /// Told once when the bus closes the connection (not after a stop).
    var disconnected: @Sendable () -> Void = {}
    var log: (@Sendable (String) -> Void)?
    private var pending: [UInt64: OpaquePointer] = [:]
    private var nextCall: UInt64 = 0
    private var peers: [String: Peer] = [:]
    private var connectionTimes = ConnectionTimes()

    init(thread: ServerThread, servedUID: UInt32) {
        self.thread = thread
        self.servedUID = servedUID
    }

    /// Connects and registers the object prefixes and the bus signals (on the
    /// bus thread, before the loop). Returns 0 or a negative errno.
    func open(address: String, prefixes: [String]) -> Int32 {
        var opened: OpaquePointer?
        connectionTimes.connectedAt = sesame_boottime_nanoseconds()
        let result = sesame_sdbus_open(address, &opened)
        guard result >= 0, let opened else { return result < 0 ? result : -EIO }
        bus = opened
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        let onCall: sesame_sdbus_handler = { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            return Unmanaged<ServerState>.fromOpaque(userdata).takeUnretainedValue().received(message)
        }
        let onSignal: sesame_sdbus_handler = { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<ServerState>.fromOpaque(userdata).takeUnretainedValue().busSignal(message)
            return 0
        }
        let rules = [
            "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'",
            "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',member='NameLost'",
        ]
        for rule in rules {
            let added = sesame_sdbus_add_match_handler(opened, rule, onSignal, userdata)
            if added < 0 { return added }
        }
        for prefix in prefixes {
            let added = sesame_sdbus_add_fallback(opened, prefix, onCall, userdata)
            if added < 0 { return added }
        }
        return 0
    }

    /// Lets sd-bus read and dispatch until nothing is pending; `false` once
    /// the connection is gone.
    func pump() -> Bool {
        guard let bus else { return false }
        while true {
            var unhandled: OpaquePointer?
            let result = sesame_sdbus_process(bus, &unhandled)
            if let unhandled {
                refuseUnhandled(unhandled)
                sesame_sdbus_message_unref(unhandled)
            }
            if result < 0 { return false }
            if result == 0 { return true }
        }
    }

    /// A method call to a path outside the served prefix: sd-bus hands it
    /// back instead of answering, and a caller left without a reply waits
    /// for its timeout (secretstorage's `Item('/not/existing/path')`). The
    /// error is GDBus's, as gnome-keyring gives it, which clients take for
    /// "no such item".
    private func refuseUnhandled(_ message: OpaquePointer) {
        guard sesame_sdbus_message_is_method_call(message) != 0 else { return }
        let path = sesame_sdbus_message_get_path(message).map { String(cString: $0) } ?? ""
        _ = sesame_sdbus_reply_error(message, "org.freedesktop.DBus.Error.UnknownMethod",
                                     "Object does not exist at path \u{201C}\(path.escapingControlCharacters())\u{201D}")
    }

    func wait(wakeFD: Int32) -> Int32 {
        guard let bus else { return -ENOTCONN }
        return sesame_sdbus_wait_with(bus, wakeFD, UInt64.max)
    }

    func close() {
        for (_, call) in pending { sesame_sdbus_message_unref(call) }
        pending.removeAll()
        if let bus { sesame_sdbus_close(bus) }
        bus = nil
    }

    /// A method call arrived (sd-bus callback, bus thread).
    func received(_ message: OpaquePointer) -> Int32 {
        guard sesame_sdbus_message_is_method_call(message) != 0 else { return 0 }
        let sender = sesame_sdbus_message_get_sender(message).map { String(cString: $0) } ?? ""
        guard let peer = peer(sender, message) else {
            log?("refused \(sender.escapingControlCharacters()): its credentials could not be read from the bus")
            _ = sesame_sdbus_reply_error(message, "org.freedesktop.DBus.Error.AccessDenied", "the caller's credentials could not be read")
            return 1
        }
        // Fail closed: another uid on this bus (a shared or misconfigured
        // session bus) is refused before its arguments are even read.
        guard peer.uid == servedUID else {
            log?("refused \(sender.escapingControlCharacters()) (uid \(peer.uid), pid \(peer.pid)): only uid \(servedUID) is served")
            _ = sesame_sdbus_reply_error(message, "org.freedesktop.DBus.Error.AccessDenied",
                                         "only uid \(servedUID) is served; the caller is uid \(peer.uid)")
            return 1
        }
        let arguments: [DBusValue]
        do {
            arguments = try DBusMessageCodec.readAll(message)
        } catch {
            log?("refused a call of \(sender.escapingControlCharacters()) (pid \(peer.pid)): \(error.reason.escapingControlCharacters())")
            _ = sesame_sdbus_reply_error(message, "org.freedesktop.DBus.Error.InvalidArgs", error.reason)
            return 1
        }
        guard let handler else { return 0 }
        let app = app(of: sender, peer)
        var request = DBusRequest(
            sender: sender, senderPID: peer.pid, senderUID: peer.uid, senderApp: app,
            path: sesame_sdbus_message_get_path(message).map { String(cString: $0) } ?? "",
            interface: sesame_sdbus_message_get_interface(message).map { String(cString: $0) } ?? "",
            member: sesame_sdbus_message_get_member(message).map { String(cString: $0) } ?? "",
            signature: sesame_sdbus_message_get_signature(message).map { String(cString: $0) } ?? "",
            arguments: arguments)
        request.senderConnectedBy = peers[sender]?.connectedBy ?? 0
        nextCall += 1
        let id = nextCall
        pending[id] = sesame_sdbus_message_ref(message)
        let thread = self.thread
        Task {
            let reply = await handler(request)
            thread.enqueue { state in state.reply(to: id, with: reply) }
        }
        return 1
    }

    private func peer(_ sender: String, _ message: OpaquePointer) -> Peer? {
        if let known = peers[sender] { return known }
        var uid: uid_t = 0
        var pid: pid_t = 0
        guard sesame_sdbus_sender_creds(message, &uid, &pid) >= 0, uid != uid_t.max else { return nil }
        let peer = Peer(uid: uid, pid: pid)
        // Unique names are never reused on a bus, so the answer stays true.
        if sender.hasPrefix(":") { peers[sender] = peer }
        return peer
    }

    /// The caller's app, read once per connection: at its first served call
    /// (a caller of another uid is never looked at).
    private func app(of sender: String, _ peer: Peer) -> AppIdentity? {
        if peer.appResolved { return peer.app }
        let connectedBy = connectionTimes.connectedBy(sender)
        let app = ProcessApp.identify(pid: peer.pid, connectedBy: connectedBy)
        peers[sender]?.connectedBy = connectedBy
        peers[sender]?.app = app
        peers[sender]?.appResolved = true
        connectionTimes.forget(sender)
        return app
    }

    private func reply(to id: UInt64, with reply: DBusReply) {
        guard let call = pending.removeValue(forKey: id) else { return }
        defer { sesame_sdbus_message_unref(call) }
        guard let bus, sesame_sdbus_message_no_reply(call) == 0 else {
            reply.afterSending?()
            return
        }
        switch reply.result {
        case .failure(let error):
            _ = sesame_sdbus_reply_error(call, error.name, error.message)
        case .success(let values):
            var message: OpaquePointer?
            guard sesame_sdbus_new_method_return(call, &message) >= 0, let message else { break }
            defer { sesame_sdbus_message_unref(message) }
            if DBusMessageCodec.append(values, to: message) < 0 {
                _ = sesame_sdbus_reply_error(call, "org.freedesktop.DBus.Error.Failed", "the reply could not be built")
            } else {
                _ = sesame_sdbus_send(bus, message)
            }
        }
        reply.afterSending?()
    }

    /// Sends a signal, unicast: to `destination` when it is a served peer,
    /// else to every connection of the served uid that has called us. A
    /// broadcast would reach every connection on the bus that asked for it,
    /// another uid's too, on a bus that admits several (SPEC D10: only the
    /// owner's peers hear its signals). Returns 0 or a negative errno.
    @discardableResult
    func emit(path: String, interface: String, member: String, arguments: [DBusValue], destination: String?) -> Int32 {
        guard let bus else { return -ENOTCONN }
        let served = peers.filter { $0.value.uid == servedUID }.keys
        let recipients = destination.map { name in served.contains(name) ? [name] : [] } ?? served.sorted()
        var result: Int32 = 0
        for recipient in recipients {
            var message: OpaquePointer?
            let created = sesame_sdbus_new_signal(bus, &message, path, interface, member)
            guard created >= 0, let message else { return created }
            defer { sesame_sdbus_message_unref(message) }
            let addressed = sesame_sdbus_set_destination(message, recipient)
            if addressed < 0 { return addressed }
            let appended = DBusMessageCodec.append(arguments, to: message)
            if appended < 0 { return appended }
            let sent = sesame_sdbus_send(bus, message)
            if sent < 0 { result = sent }
        }
        return result
    }

    /// A bus signal we matched on: NameOwnerChanged or NameLost.
    func busSignal(_ message: OpaquePointer) {
        if sesame_sdbus_message_is_signal(message, "org.freedesktop.DBus", "NameOwnerChanged") != 0 {
            // Read first: the later the reading, the longer a pid could have been reused before it.
            let now = sesame_boottime_nanoseconds()
            guard let values = try? DBusMessageCodec.readAll(message), values.count == 3,
                  let name = values[0].stringValue, let oldOwner = values[1].stringValue,
                  let newOwner = values[2].stringValue, name.hasPrefix(":") else { return }
            if oldOwner.isEmpty, newOwner == name {
                connectionTimes.announce(name, at: now)
                return
            }
            guard newOwner.isEmpty else { return }
            peers[name] = nil
            connectionTimes.forget(name)
            peerVanished?(name)
        } else if sesame_sdbus_message_is_signal(message, "org.freedesktop.DBus", "NameLost") != 0 {
            guard let values = try? DBusMessageCodec.readAll(message), let name = values.first?.stringValue else { return }
            nameLost?(name)
        }
    }
}
