import Sesame

/// Whether a destination-constrained key (`ssh-add -h`, SPEC D8)
/// may be listed or used on a connection, decided as OpenSSH's agent
/// decides it (`identity_permitted`, `permitted_by_dest_constraints`,
/// `process_sign_request2`). Each function answers `nil` for permitted, or
/// the reason for the agent's log.
enum DestinationPermission {
    /// Listing (`user` `nil`) or a login as `user` over `hops`. No binding at
    /// all is local use, permitted for listing; a binding that was tried and
    /// failed is not. Every hop must be allowed by some destination, from
    /// the previous hop's host (the origin first); only the last may be a
    /// login, and only there is the user known. A key listed to a forwarded
    /// connection must also be allowed onwards from its last host, so that
    /// a key meant only for logging in to a host is hidden from that host.
    static func refusal(_ destinations: [KeyDestination], hops: [SSHSessionBinding], bindAttempted: Bool, user: String?) -> String? {
        guard !destinations.isEmpty else { return nil }
        guard !hops.isEmpty else { return bindAttempted ? "its session binding failed, so its destinations cannot be checked" : nil }
        var from: PublicKey?
        for (index, hop) in hops.enumerated() {
            let isLast = index == hops.count - 1
            if isLast, hop.forwarded, user != nil { return "a login was asked on a forwarding hop" }
            if !isLast, !hop.forwarded { return "a hop past a login" }
            guard permitted(destinations, from: from, to: hop.hostKey, user: isLast ? user : nil) else {
                return "its destinations (ssh-add -h) do not allow the hop from " + (from.map { "host \($0.fingerprint)" } ?? "this machine")
                    + " to host \(hop.hostKey.fingerprint)" + (isLast ? user.map { " as user \($0)" } ?? "" : "")
            }
            from = hop.hostKey
        }
        if let last = hops.last, last.forwarded, user == nil, !permitted(destinations, from: last.hostKey, to: nil, user: nil) {
            return "its destinations (ssh-add -h) allow no hop onwards from host \(last.hostKey.fingerprint), to which the agent is forwarded"
        }
        return nil
    }

    /// A signature of `data` by `key`: only an SSH login, on a bound
    /// connection, on the session bound last and to the host bound last.
    static func signRefusal(_ destinations: [KeyDestination], data: [UInt8], key: PublicKey, hops: [SSHSessionBinding], bindAttempted: Bool) -> String? {
        guard !destinations.isEmpty else { return nil }
        guard let last = hops.last else {
            return "it is restricted to destinations (ssh-add -h) and this connection is bound to no SSH session (OpenSSH 8.9+ binds its logins)"
        }
        guard let request = SSHUserauthRequest(data, key: key) else {
            return "it is restricted to destinations (ssh-add -h) and signs only SSH logins; this was something else"
        }
        if let reason = refusal(destinations, hops: hops, bindAttempted: bindAttempted, user: request.user) { return reason }
        guard request.sessionIdentifier == last.sessionIdentifier else { return "the login is for another session than the one bound last" }
        if hops.count > 1, request.hostKey == nil { return "a login through a forwarded agent that names no host key" }
        if let named = request.hostKey, named != last.hostKey { return "the login names host \(named.fingerprint), not the host bound last" }
        return nil
    }

    /// Whether some destination allows the hop from `from` (`nil`: the
    /// origin) to `to` (`nil`: anywhere) as `user` (`nil`: any).
    static func permitted(_ destinations: [KeyDestination], from: PublicKey?, to: PublicKey?, user: String?) -> Bool {
        destinations.contains { destination in
            if let from {
                guard matches(from, destination.from) else { return false }
            } else if destination.from.hostname != nil || !destination.from.hostKeys.isEmpty {
                return false
            }
            if let to, !matches(to, destination.to) { return false }
            if let pattern = destination.to.user, let user, !matchesPattern(Array(user.utf8), Array(pattern.utf8)) { return false }
            return true
        }
    }

    /// Whether `key` is one of the hop's host keys. A certificate authority
    /// vouches only for certificates, which a binding's host key never is
    /// here (Sesame does not verify host certificates), so it never matches.
    static func matches(_ key: PublicKey, _ hop: KeyDestination.Hop) -> Bool {
        hop.hostKeys.contains { !$0.isCertificateAuthority && SSHSignature.publicKey(fromBlob: $0.blob) == key }
    }

    /// OpenSSH's `match_pattern`: `*` any run of bytes, `?` one byte, all
    /// else itself.
    static func matchesPattern(_ text: [UInt8], _ pattern: [UInt8]) -> Bool {
        var (t, p) = (0, 0)
        var star: (pattern: Int, text: Int)?
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = (p, t)
                p += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let last = star {
                // Let the last star take one more byte and try again.
                star = (last.pattern, last.text + 1)
                p = last.pattern + 1
                t = last.text + 1
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}
