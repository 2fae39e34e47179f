/// A D-Bus error reply: its name (`org.freedesktop.DBus.Error.InvalidArgs`,
/// `org.freedesktop.Secret.Error.IsLocked`…) and a message for people.
package struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    package var name: String
    package var message: String
    /// What failed on this side of the bus, for an error no peer sent
    /// (`org.freedesktop.DBus.Error.Failed` then); `nil` for a peer's reply.
    package var localFailure: LocalFailure?

    package init(_ name: String, _ message: String, localFailure: LocalFailure? = nil) {
        self.name = name
        self.message = message
        self.localFailure = localFailure
    }

    package var description: String { "\(name): \(message)" }

    package static func invalidArgs(_ message: String) -> DBusError {
        DBusError("org.freedesktop.DBus.Error.InvalidArgs", message)
    }

    package static func unknownMethod(_ message: String) -> DBusError {
        DBusError("org.freedesktop.DBus.Error.UnknownMethod", message)
    }

    package static func unknownObject(_ message: String) -> DBusError {
        DBusError("org.freedesktop.DBus.Error.UnknownObject", message)
    }

    package static func accessDenied(_ message: String) -> DBusError {
        DBusError("org.freedesktop.DBus.Error.AccessDenied", message)
    }

    package static func failed(_ message: String, localFailure: LocalFailure? = nil) -> DBusError {
        DBusError("org.freedesktop.DBus.Error.Failed", message, localFailure: localFailure)
    }
}
