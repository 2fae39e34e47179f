import Sesame

/// Who is asking, as the bus reported it, never a credential (the uid check
/// happened before any call reaches the store). The unique bus name is
/// assigned by the bus and never reused, so it is what an `Unlock` belongs
/// to (SPEC D10); pid and executable only name the program in prompts and
/// records.
public struct SecretServiceCaller: Sendable, Hashable {
    /// The caller's unique bus name (`:1.42`).
    public var busName: String
    /// Its pid as the bus knows it; 0 when unknown.
    public var pid: Int32
    /// Its executable from `/proc/<pid>/exe`, when readable and asked for.
    public var executable: String?
    /// Which app the caller is (SPEC D13), so that an item can record the
    /// app that made it and a prompt can name the app that asks. A hint,
    /// never a credential: a sandbox's app id is one its app cannot change,
    /// but an executable path or unit name is chosen by code running as the
    /// user. `nil` when unknown: the process could not be read, or may not
    /// be the one that connected (its pid reused).
    public var app: AppIdentity?
    /// A `CLOCK_BOOTTIME` reading (ns) by which its connection existed; 0
    /// when unknown. Where to ask it (its terminal) is read only from a
    /// process that started by then, never from a later one given its pid.
    public var connectedBy: UInt64 = 0

    /// - Parameters:
    ///   - busName: Unique bus name.
    ///   - pid: Process id, 0 when unknown.
    ///   - executable: Path of its program.
    ///   - app: Its app, `nil` when unknown.
    ///   - connectedBy: When its connection existed (`CLOCK_BOOTTIME`, ns); 0 when unknown.
    public init(busName: String, pid: Int32, executable: String?, app: AppIdentity? = nil, connectedBy: UInt64 = 0) {
        self.busName = busName
        self.pid = pid
        self.executable = executable
        self.app = app
        self.connectedBy = connectedBy
    }
}
