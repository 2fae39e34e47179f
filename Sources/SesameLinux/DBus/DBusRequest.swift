import Sesame

/// A method call the server received, already read into values, from a
/// caller whose uid the bus vouched for.
package struct DBusRequest: Sendable {
    /// The caller's unique name (`:1.42`).
    package var sender: String
    /// The caller's pid as the bus reports it; 0 when unknown.
    package var senderPID: Int32
    /// The caller's effective uid as the bus reports it.
    package var senderUID: UInt32
    /// The caller's app (SPEC D13), read once per connection at its first
    /// call and only if its process started before the connection was
    /// known: `nil` when unknown, never a later process's that took the pid.
    package var senderApp: AppIdentity?
    /// A `CLOCK_BOOTTIME` reading (ns) by which the caller's connection
    /// existed, kept from its first call; 0 when unknown. What tells the
    /// process behind ``senderPID`` from a later one given its pid, when
    /// the service looks for the caller's terminal.
    package var senderConnectedBy: UInt64 = 0
    package var path: String
    /// Empty when the caller named no interface.
    package var interface: String
    package var member: String
    /// The arguments' signature as sent.
    package var signature: String
    package var arguments: [DBusValue]

    package init(sender: String, senderPID: Int32, senderUID: UInt32, senderApp: AppIdentity? = nil, path: String,
                 interface: String, member: String, signature: String, arguments: [DBusValue]) {
        self.sender = sender
        self.senderPID = senderPID
        self.senderUID = senderUID
        self.senderApp = senderApp
        self.path = path
        self.interface = interface
        self.member = member
        self.signature = signature
        self.arguments = arguments
    }
}

/// What the server answers to a ``DBusRequest``.
package struct DBusReply: Sendable {
    package var result: Result<[DBusValue], DBusError>
    /// Runs on the bus thread right after the reply is sent: work whose
    /// signals must follow the reply (a prompt's `Completed`) starts here.
    package var afterSending: (@Sendable () -> Void)?

    package init(_ values: [DBusValue], afterSending: (@Sendable () -> Void)? = nil) {
        self.result = .success(values)
        self.afterSending = afterSending
    }

    package init(error: DBusError) {
        self.result = .failure(error)
        self.afterSending = nil
    }
}
