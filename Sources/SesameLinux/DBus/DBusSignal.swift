/// A signal a ``DBusClient`` received through one of its match rules.
package struct DBusSignal: Sendable {
    /// The emitting object's path.
    package var path: String
    package var interface: String
    package var member: String
    /// The signal's arguments; `nil` when sd-bus could not read them (a
    /// malformed signal), which a reader ignores or reports as it needs.
    package var arguments: [DBusValue]?

    package init(path: String, interface: String, member: String, arguments: [DBusValue]?) {
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// Whether this is `interface.member` from the object `path`.
    package func matches(interface: String, member: String, path: String? = nil) -> Bool {
        self.interface == interface && self.member == member && (path == nil || self.path == path)
    }
}
