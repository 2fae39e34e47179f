extension DBusError {
    /// A client's failure on this side of the bus, kept apart from the
    /// peer's replies: fprintd's user must learn whether libsystemd, the bus
    /// or the connection failed (SPEC A2), which no error name tells.
    package enum LocalFailure: Sendable, Hashable {
        /// libsystemd.so.0 or one of its symbols could not be loaded; why.
        case libraryMissing(String)
        /// The bus at `address` could not be reached (`errno` from sd-bus).
        case unreachable(address: String, errno: Int32)
        /// The connection broke, or a message could not be built or read.
        case transport(errno: Int32)
        /// No thread could be started for the connection.
        case noThread
    }
}
