#if canImport(Subprocess)
extension FprintdHarness {
    /// Which parts of the environment to start, so tests can take one away.
    public struct Options: Sendable, Hashable {
        /// Start the polkit mock. Without it fprintd refuses every guarded
        /// call with `PermissionDenied`.
        public var polkit: Bool
        /// Start fprintd. Without it the bus has no `net.reactivated.Fprint`.
        public var fprintd: Bool
        /// Give fprintd libfprint's virtual reader. Without it fprintd runs
        /// but reports `NoSuchDevice`.
        public var virtualDevice: Bool

        /// Creates options; by default everything starts.
        ///
        /// - Parameters:
        ///   - polkit: Start the polkit mock.
        ///   - fprintd: Start fprintd.
        ///   - virtualDevice: Attach the virtual reader.
        public init(polkit: Bool = true, fprintd: Bool = true, virtualDevice: Bool = true) {
            self.polkit = polkit
            self.fprintd = fprintd
            self.virtualDevice = virtualDevice
        }
    }
}
#endif
