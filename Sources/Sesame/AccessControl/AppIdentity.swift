/// Which app a client is, as far as the machine can tell (SPEC D13: the
/// keychain's access group): the app id its sandbox gives it, else the
/// program it runs.
///
/// An attributed item records the app that created or replaced it, and
/// the apps its owner allowed always. How strong an identity is depends on
/// its ``Kind``: a Flatpak app id comes from a file inside a sandbox the app
/// cannot write, while an executable path is only what the client's own
/// process says about itself. Neither stops code that runs as the same user
/// outside any sandbox: it can read the vault file itself. An identity gates
/// honest apps and names who asks; it is never a proof.
public struct AppIdentity: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Where the identity came from, strongest first.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Comparable {
        /// A Flatpak app id, from the sandbox's `/.flatpak-info`.
        case flatpak
        /// A snap's name, from the snap's cgroup.
        case snap
        /// The app id of the systemd `app-*` unit the client runs in.
        case systemdUnit = "systemd-unit"
        /// The path of the client's executable.
        case executable

        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// Where ``id`` came from.
    public let kind: Kind
    /// The app id, snap name, unit app id or executable path. Text from
    /// outside: escape it before showing it (``description`` does).
    public let id: String

    /// The most bytes an ``id`` may have (a path's limit on Linux).
    public static let maximumIDLength = 4096

    /// - Parameters:
    ///   - kind: Where the identity came from.
    ///   - id: The app id, name or path; 1 to ``maximumIDLength`` bytes
    ///     with no NUL.
    /// - Returns: `nil` for an empty, oversized or NUL-holding id.
    public init?(kind: Kind, id: String) {
        guard !id.isEmpty, id.utf8.count <= Self.maximumIDLength, !id.utf8.contains(0) else { return nil }
        self.kind = kind
        self.id = id
    }

    /// The identity as one line for people, control characters escaped:
    /// `org.mozilla.firefox (Flatpak)`, `/usr/bin/chromium`.
    public var description: String {
        let shown = id.escapingControlCharacters()
        switch kind {
        case .flatpak: return "\(shown) (Flatpak)"
        case .snap: return "\(shown) (snap)"
        case .systemdUnit: return "\(shown) (app unit)"
        case .executable: return shown
        }
    }

    /// The identity as stored and as the CLI takes it: `flatpak:ID`,
    /// `snap:NAME`, `systemd-unit:ID`, or an absolute executable path.
    public var token: String {
        kind == .executable ? id : "\(kind.rawValue):\(id)"
    }

    /// Reads what ``token`` wrote.
    /// - Parameter token: `KIND:ID`, or an absolute path.
    /// - Returns: `nil` for anything else.
    public init?(token: String) {
        if token.hasPrefix("/") {
            self.init(kind: .executable, id: token)
            return
        }
        guard let colon = token.firstIndex(of: ":"), let kind = Kind(rawValue: String(token[..<colon])), kind != .executable else {
            return nil
        }
        self.init(kind: kind, id: String(token[token.index(after: colon)...]))
    }

    public static func < (lhs: AppIdentity, rhs: AppIdentity) -> Bool {
        (lhs.kind, lhs.id) < (rhs.kind, rhs.id)
    }
}
