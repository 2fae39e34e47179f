/// A D-Bus error reply: its name (`org.freedesktop.DBus.Error.InvalidArgs`,
/// `org.freedesktop.Secret.Error.IsLocked`…) and a message for people.
package struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    package var name: String
    package var message: String

    package init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
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

    package static func failed(_ message: String) -> DBusError {
        DBusError("org.freedesktop.DBus.Error.Failed", message)
    }
}
