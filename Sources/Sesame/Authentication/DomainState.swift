/// Opaque bytes that describe the current biometric enrolment (SPEC A8).
///
/// It changes whenever a biometric is added or removed. Compare two values to
/// learn whether the enrolment changed; the bytes mean nothing else. On Linux
/// it is a digest over the sensor's identity and the enrolled finger list.
public struct DomainState: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The opaque bytes.
    public let bytes: [UInt8]

    /// Wraps bytes produced by a backend.
    ///
    /// - Parameter bytes: A digest of the enrolment, as the backend computes it.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Compares in constant time, since a recorded domain state is kept like a
    /// secret (SPEC C4).
    public static func == (lhs: DomainState, rhs: DomainState) -> Bool {
        ConstantTime.equals(lhs.bytes, rhs.bytes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes)
    }

    /// A short fingerprint of the value, for diagnostics only.
    public var description: String {
        let prefix = bytes.prefix(4).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        return "DomainState(\(prefix)…, \(bytes.count) bytes)"
    }
}
