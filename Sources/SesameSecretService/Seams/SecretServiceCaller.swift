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
    /// Which app it is (SPEC D13): its sandbox's app id, else its
    /// executable; `nil` when it could not be told. A hint that sorts
    /// honest apps apart, never proof against code of the same user.
    public var app: AppIdentity?

    /// - Parameters:
    ///   - busName: Unique bus name.
    ///   - pid: Process id, 0 when unknown.
    ///   - executable: Path of its program.
    ///   - app: Which app it is, if known.
    public init(busName: String, pid: Int32, executable: String?, app: AppIdentity? = nil) {
        self.busName = busName
        self.pid = pid
        self.executable = executable
        self.app = app
    }
}
