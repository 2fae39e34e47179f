import Sesame
import SesameSSH

/// A key's destination (`ssh-add -h`, SPEC D8) in `key ls --json`; names
/// came from a client, so their control characters are escaped.
struct KeyDestinationDocument: Encodable {
    struct Hop: Encodable {
        struct HostKey: Encodable {
            /// `SHA256:…` of a key Sesame reads, else absent.
            var fingerprint: String?
            var type: String
            var certificateAuthority: Bool
        }

        var user: String?
        /// Absent for the origin (this machine).
        var hostname: String?
        var hostKeys: [HostKey]
    }

    var from: Hop
    var to: Hop

    init(_ destination: KeyDestination) {
        from = Self.hop(destination.from)
        to = Self.hop(destination.to)
    }

    private static func hop(_ hop: KeyDestination.Hop) -> Hop {
        Hop(user: hop.user?.escapingControlCharacters(), hostname: hop.hostname?.escapingControlCharacters(), hostKeys: hop.hostKeys.map { key in
            Hop.HostKey(fingerprint: SSHSignature.publicKey(fromBlob: key.blob)?.fingerprint,
                        type: String(decoding: typeName(of: key.blob) ?? [], as: UTF8.self).escapingControlCharacters(),
                               certificateAuthority: key.isCertificateAuthority)
        })
    }

    /// `ssh-add -h`'s own spelling: `[user@]host`, or `host>[user@]host`
    /// for a hop from a host, for `key ls`'s text.
    static func spelled(_ destination: KeyDestination) -> String {
        let to = (destination.to.user.map { $0 + "@" } ?? "") + (destination.to.hostname ?? "*")
        return (destination.from.hostname.map { $0 + ">" } ?? "") + to
    }

    /// The first `string` of an SSH blob (its type), without trapping on short input.
    private static func typeName(of bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 4 else { return nil }
        let length = bytes[..<4].reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count - 4 >= length else { return nil }
        return Array(bytes[4..<4 + length])
    }
}
