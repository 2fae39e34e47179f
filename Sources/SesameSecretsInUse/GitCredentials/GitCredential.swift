import Sesame
/// One credential in the words of git's credential helper protocol
/// (gitcredentials(7)): what git asks for, and what a helper stores and answers.
///
/// A stored credential is one vault item. Its name (the item's account)
/// spells protocol, username, host and path like a URL,
/// `https://alice@example.com:8443/org/repo.git`, each part percent-encoded
/// so that no two credentials share a name; its value holds the password,
/// `password_expiry_utc` and `oauth_refresh_token`, sealed like every value.
public struct GitCredential: Sendable {
    /// `protocol=`: `https`, `http`, `cert`, …
    public var `protocol`: String?
    /// `host=`: the host name, with `:port` when the URL has one.
    public var host: String?
    /// `path=`: the repository path, sent only with `credential.useHttpPath`
    /// (or the certificate's path for `cert`).
    public var path: String?
    /// `username=`; may be empty (git stores an empty one for SSO hosts).
    public var username: String?
    /// `password=`; may be empty.
    public var password: SecretBytes?
    /// `password_expiry_utc=`: when the password stops working, in seconds
    /// since 1970 (UTC). An expired credential is never answered.
    public var passwordExpiryUTC: Int64?
    /// `oauth_refresh_token=`: kept with the password and answered with it.
    public var oauthRefreshToken: SecretBytes?

    /// An empty credential; set the attributes git sent.
    public init() {}

    /// The credential a stored item's name spells (protocol, username, host
    /// and path; no password).
    ///
    /// - Parameter itemName: A vault item's account.
    /// - Returns: `nil` when the name is not one ``itemName`` makes (another
    ///   tool's item in the same service).
    public init?(itemName: String) {
        guard let credential = GitCredentialEncoding.credential(fromItemName: itemName) else { return nil }
        self = credential
    }

    /// The name of the vault item that stores this credential,
    /// `protocol://username@host[/path]` percent-encoded; `nil` without a
    /// protocol, a username, or a host or path.
    public var itemName: String? { GitCredentialEncoding.itemName(of: self) }

    /// Whether `stored` answers this query, as git's own `credential_match`
    /// decides: every attribute the query has must be equal; an attribute it
    /// lacks matches anything (a query without `path=` matches every path),
    /// except the host: a query without one (missing or empty) matches only a
    /// credential without one (`cert`), never every host.
    ///
    /// - Parameter stored: A stored credential.
    /// - Returns: `true` when `stored` matches. Passwords are not compared.
    public func isAnswered(by stored: GitCredential) -> Bool {
        func check(_ wanted: String?, _ have: String?) -> Bool { wanted == nil || wanted == have }
        // An empty host is no host (a `cert` credential's), as in `isSpecific` and the item name.
        let wantedHost = host == "" ? nil : host, storedHost = stored.host == "" ? nil : stored.host
        return check(self.protocol, stored.protocol) && wantedHost == storedHost
            && check(path, stored.path) && check(username, stored.username)
    }

    /// Whether the credential can be stored or looked up: a protocol and a
    /// host; only a `cert` credential (git sends the certificate's file, no
    /// host) is named by its path alone. Without them a query would match the
    /// credentials of every host (git's `credential-store` answers a missing
    /// host with any host's password).
    public var isSpecific: Bool {
        guard let scheme = self.protocol, !scheme.isEmpty else { return false }
        if let host, !host.isEmpty { return true }
        return scheme == "cert" && !(path ?? "").isEmpty
    }

    /// Whether `password_expiry_utc` is at or before `now` (seconds since 1970).
    ///
    /// - Parameter now: The current time, in seconds since 1970 (UTC).
    /// - Returns: `true` when the password has expired.
    public func hasExpired(at now: Int64) -> Bool {
        guard let passwordExpiryUTC else { return false }
        return passwordExpiryUTC <= now
    }
}
