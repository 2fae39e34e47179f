import Sesame

/// Replaces every occurrence of the injected secrets in a byte stream by
/// `<concealed by sesame>`, even when an occurrence is split across reads.
///
/// Bytes that could still become the start of a secret are held back until
/// the next read decides (or the end of the stream); nothing else is held, so
/// a prompt without a newline still shows, unless it ends with the first
/// characters of a secret. Longer secrets win over shorter ones that start
/// the same way.
struct OutputMasker {
    static let mask = Array("<concealed by sesame>".utf8)

    /// Longest first.
    private var secrets: [[UInt8]]
    private var pending: [UInt8] = []

    /// - Parameter secrets: The values to conceal; empty ones are ignored.
    init(secrets: [SecretBytes]) {
        var unique: [[UInt8]] = []
        for secret in secrets where !secret.isEmpty {
            let bytes = secret.withUnsafeBytes { Array($0) }
            if !unique.contains(bytes) { unique.append(bytes) }
        }
        self.secrets = unique.sorted { $0.count > $1.count }
    }

    /// What may be written now, given the next chunk of the stream.
    mutating func feed(_ chunk: some Collection<UInt8>) -> [UInt8] {
        pending += chunk
        return drain(atEnd: false)
    }

    /// The rest, at the end of the stream.
    mutating func finish() -> [UInt8] {
        drain(atEnd: true)
    }

    /// Wipes the copies of the secrets and what is held back.
    mutating func wipeAll() {
        wipe(&pending)
        for index in secrets.indices { wipe(&secrets[index]) }
    }

    private mutating func drain(atEnd: Bool) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        scanning: while index < pending.count {
            let rest = pending[index...]
            if !atEnd, secrets.contains(where: { $0.count > rest.count && $0.starts(with: rest) }) {
                break scanning
            }
            for secret in secrets where rest.starts(with: secret) {
                output += Self.mask
                index += secret.count
                continue scanning
            }
            output.append(pending[index])
            index += 1
        }
        var held = Array(pending[index...])
        swap(&held, &pending)
        wipe(&held)
        return output
    }
}
