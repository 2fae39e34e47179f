#if os(Linux)
import Glibc

extension LogindSessionLock {
    /// Where logind is and whose session to watch.
    public struct Configuration: Sendable, Hashable {
        /// A D-Bus address for the bus logind is on; `nil` for the system
        /// bus at its standard place. Tests pass a private bus here.
        public var systemBusAddress: String?
        /// The caller's own session (`XDG_SESSION_ID`); when `nil`, or no
        /// longer known to logind, the user's display session is used, else
        /// the first of the user's sessions.
        public var sessionID: String?
        /// Whose sessions to look at; the calling user by default.
        public var uid: UInt32
        /// How long to wait for logind to answer one call.
        public var callTimeout: Duration
        /// Separates the marks kept until reboot ("unlocked since boot",
        /// "a lock was seen") of one session manager from another's;
        /// `nil` for the machine's own.
        public var markScope: String?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - systemBusAddress: The bus address, or `nil` for the system bus.
        ///   - sessionID: The caller's session id, if it has one.
        ///   - uid: The user whose sessions count.
        ///   - callTimeout: The limit for one D-Bus call.
        ///   - markScope: Names the marks' keys; `nil` for the machine's own.
        public init(
            systemBusAddress: String? = nil,
            sessionID: String? = nil,
            uid: UInt32 = getuid(),
            callTimeout: Duration = .seconds(5),
            markScope: String? = nil
        ) {
            self.systemBusAddress = systemBusAddress
            self.sessionID = sessionID
            self.uid = uid
            self.callTimeout = callTimeout
            self.markScope = markScope
        }

        /// The configuration a process's environment gives: the system bus
        /// of `DBUS_SYSTEM_BUS_ADDRESS`, the session of `XDG_SESSION_ID`, and
        /// marks scoped by `SESAME_REUSE_SCOPE` (tests run side by side with
        /// it, as with the reuse window's key).
        ///
        /// - Parameter environment: The variables to read.
        public init(environment: [String: String]) {
            let address = environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
            let scope = environment["SESAME_REUSE_SCOPE"].flatMap { $0.isEmpty ? nil : $0 }
            self.init(systemBusAddress: address, sessionID: environment["XDG_SESSION_ID"], markScope: scope)
        }

        /// The standard system bus socket, looked at before loading
        /// libsystemd: where it is missing nothing can be asked, and a
        /// one-shot read costs a `stat` instead of a library load.
        static let standardSystemBusSocket = "/run/dbus/system_bus_socket"

        var timeoutMicroseconds: UInt64 { callTimeout.dbusTimeoutMicroseconds }
    }
}
#endif
