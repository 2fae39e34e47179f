extension FprintdSensor {
    /// Where fprintd is and what to verify.
    public struct Configuration: Sendable, Hashable {
        /// A D-Bus address such as `unix:path=/tmp/bus/socket` for the bus
        /// fprintd is on; `nil` for the system bus (which honours
        /// `DBUS_SYSTEM_BUS_ADDRESS`). Tests pass a private bus here.
        public var systemBusAddress: String?
        /// The finger to verify, e.g. `"right-index-finger"`; `"any"` (the
        /// default) lets fprintd choose among the enrolled ones. Readers
        /// without identification, such as libfprint's virtual device, then
        /// check only the first enrolled finger.
        public var finger: String
        /// Whose fingers to use; the empty string (the default) means the
        /// calling user. Another user needs polkit's `setusername` permission.
        public var username: String
        /// How long to wait for fprintd to answer one call (not for a finger).
        public var callTimeout: Duration
        /// fprintd's print store (its `StateDirectory`). Where this process
        /// can read the user's prints there (as root), their digest joins the
        /// domain state, so a finger re-enrolled under the same name is seen
        /// too; elsewhere only the finger names count. `nil` turns it off.
        public var printStoreDirectory: String?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - systemBusAddress: The bus address, or `nil` for the system bus.
        ///   - finger: The finger to verify, or `"any"`.
        ///   - username: The user, or `""` for the caller.
        ///   - callTimeout: The limit for one D-Bus call.
        ///   - printStoreDirectory: fprintd's print store, read where permitted; `nil` to use finger names only.
        public init(
            systemBusAddress: String? = nil,
            finger: String = "any",
            username: String = "",
            callTimeout: Duration = .seconds(10),
            printStoreDirectory: String? = "/var/lib/fprint"
        ) {
            self.systemBusAddress = systemBusAddress
            self.finger = finger
            self.username = username
            self.callTimeout = callTimeout
            self.printStoreDirectory = printStoreDirectory
        }

        var timeoutMicroseconds: UInt64 { callTimeout.dbusTimeoutMicroseconds }
    }
}
