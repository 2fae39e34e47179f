import Sesame

/// `restrict-destination-v00@openssh.com` (`ssh-add -h`, SPEC D8), read as
/// OpenSSH 9.2's agent reads it (`parse_dest_constraint`,
/// `parse_dest_constraint_hop`), and refused where it would refuse it: any
/// inconsistency refuses the whole key, never part of its restriction.
extension SSHAgentReader {
    /// As many destinations as OpenSSH's agent accepts in one constraint.
    static let maximumDestinations = 1024
    /// The longest user pattern OpenSSH's agent accepts.
    static let maximumUserLength = 256

    /// The extension's data: `string (string constraint)*`, each constraint
    /// `string from-hop ‖ string to-hop ‖ string reserved`.
    mutating func destinations() throws(SSHAgentProtocolError) -> [KeyDestination] {
        var list = SSHAgentReader(try string("destination constraints"))
        var destinations: [KeyDestination] = []
        while !list.isAtEnd {
            guard destinations.count < Self.maximumDestinations else { throw .malformed("more than \(Self.maximumDestinations) destination constraints") }
            var constraint = SSHAgentReader(try list.string("destination constraint"))
            let from = try Self.hop(try constraint.string("destination \"from\" hop"))
            let to = try Self.hop(try constraint.string("destination \"to\" hop"))
            guard try constraint.string("destination constraint extensions").isEmpty else {
                throw .malformed("a destination constraint with extensions this agent does not know")
            }
            try constraint.finish()
            // The origin has neither name nor keys, another host both; a user
            // can be checked only where the login happens, at the "to" end.
            guard (from.hostname == nil) == from.hostKeys.isEmpty, from.user == nil else {
                throw .malformed("an inconsistent destination \"from\" hop")
            }
            guard to.hostname != nil, !to.hostKeys.isEmpty else { throw .malformed("an incomplete destination \"to\" hop") }
            destinations.append(KeyDestination(from: from, to: to))
        }
        guard !destinations.isEmpty else { throw .malformed("an empty destination constraint") }
        return destinations
    }

    /// `string user ‖ string hostname ‖ string reserved ‖ (string key ‖ byte is-ca)*`;
    /// an empty user or hostname is none.
    private static func hop(_ bytes: [UInt8]) throws(SSHAgentProtocolError) -> KeyDestination.Hop {
        var reader = SSHAgentReader(bytes)
        let user = try reader.text("destination user")
        let hostname = try reader.text("destination hostname")
        guard try reader.string("destination hop extensions").isEmpty else {
            throw .malformed("a destination hop with extensions this agent does not know")
        }
        guard user.utf8.count <= maximumUserLength else { throw .malformed("a destination user pattern longer than \(maximumUserLength) bytes") }
        var keys: [KeyDestination.HostKey] = []
        while !reader.isAtEnd {
            let blob = try reader.string("destination host key")
            var type = SSHAgentReader(blob)
            guard let name = try? type.string("host key type"), !name.isEmpty else { throw .malformed("a destination host key without a type") }
            keys.append(KeyDestination.HostKey(blob: blob, isCertificateAuthority: try reader.u8("destination host key CA flag") != 0))
        }
        return KeyDestination.Hop(user: user.isEmpty ? nil : user, hostname: hostname.isEmpty ? nil : hostname, hostKeys: keys)
    }

    /// A C string as OpenSSH reads one: no NUL inside; and UTF-8 here, so
    /// that what is matched and shown is what was sent.
    private mutating func text(_ what: String) throws(SSHAgentProtocolError) -> String {
        let bytes = try string(what)
        let text = String(decoding: bytes, as: UTF8.self)
        guard !bytes.contains(0), Array(text.utf8) == bytes else { throw .malformed("a \(what) that is not UTF-8 text") }
        return text
    }
}
