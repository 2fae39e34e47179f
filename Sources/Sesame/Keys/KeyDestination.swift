/// One entry of a key's destination list (`ssh-add -h`, OpenSSH's
/// `restrict-destination-v00@openssh.com`; SPEC D8): the key may
/// be used on a connection from ``from`` to ``to``. A key with a destination
/// list may be used only along hops each of which some entry allows.
///
/// Stored with the key, sealed like its other constraints; an SSH agent
/// enforces it against the hosts its connections are bound to
/// (`session-bind@openssh.com`), as OpenSSH's agent does.
public struct KeyDestination: Sendable, Hashable {
    /// One end of a hop: a host by name and its accepted host keys, and for
    /// the destination end optionally the user logged in as.
    public struct Hop: Sendable, Hashable {
        /// A user name pattern (`*` and `?` wildcards) the destination's
        /// login must match; `nil` for any user. Never set on a ``KeyDestination/from`` hop.
        public var user: String?
        /// The host's name as `ssh-add -h` was given it (for people only:
        /// hosts are recognised by their keys); `nil` for the origin, the
        /// machine the agent runs on.
        public var hostname: String?
        /// The host's keys; empty exactly for the origin.
        public var hostKeys: [HostKey]

        /// - Parameters:
        ///   - user: A user name pattern, or `nil` for any user.
        ///   - hostname: The host's name, or `nil` for the origin.
        ///   - hostKeys: The host's keys (none for the origin).
        public init(user: String? = nil, hostname: String?, hostKeys: [HostKey]) {
            self.user = user
            self.hostname = hostname
            self.hostKeys = hostKeys
        }

        /// The origin: the agent's own machine, the start of every chain.
        public static let origin = Hop(hostname: nil, hostKeys: [])
    }

    /// A host key a hop accepts.
    public struct HostKey: Sendable, Hashable {
        /// The key's SSH public key blob (`string type ‖ …`), as OpenSSH sends it.
        public var blob: [UInt8]
        /// Whether it is a certificate authority whose certified host keys
        /// are accepted rather than a host key itself.
        public var isCertificateAuthority: Bool

        /// - Parameters:
        ///   - blob: The SSH public key blob.
        ///   - isCertificateAuthority: Whether it certifies host keys rather than being one.
        public init(blob: [UInt8], isCertificateAuthority: Bool = false) {
            self.blob = blob
            self.isCertificateAuthority = isCertificateAuthority
        }
    }

    /// Where the hop starts: ``Hop/origin`` for a first hop, else a host the
    /// agent was forwarded to.
    public var from: Hop
    /// Where the hop leads.
    public var to: Hop

    /// - Parameters:
    ///   - from: Where the hop starts (``Hop/origin`` for the agent's machine).
    ///   - to: Where it leads.
    public init(from: Hop = .origin, to: Hop) {
        self.from = from
        self.to = to
    }
}
