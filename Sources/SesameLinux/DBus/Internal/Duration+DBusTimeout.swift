#if os(Linux)
extension Duration {
    /// The duration as sd-bus's call timeout: whole microseconds, at least 1
    /// (0 would mean sd-bus's default).
    var dbusTimeoutMicroseconds: UInt64 {
        let parts = components
        let micros = parts.seconds * 1_000_000 + parts.attoseconds / 1_000_000_000_000
        return UInt64(max(micros, 1))
    }
}
#endif
