import Crypto
import Sesame

/// The Linux domain state (SPEC A8): a SHA-256 over the reader's identity
/// and the sorted names of the fingers enrolled for the user.
///
/// Known limit: fprintd tells an unprivileged process only the *names* of the
/// enrolled fingers. Deleting a finger and enrolling someone else's under the
/// same name leaves the list unchanged; only adding or removing a finger is
/// seen. Where the stored prints can be read (as root), their digest is folded
/// in too, and such a re-enrolment is seen as well. Each field is
/// length-prefixed so that no two different inputs share an encoding
/// (["ab", "c"] vs ["a", "bc"]).
enum FprintdDomainState {
    static let version = Labels.fprintdDomainState

    static func digest(deviceName: String, devicePath: String, username: String, fingers: [String], prints: [UInt8]? = nil) -> DomainState {
        var encoding: [UInt8] = []
        append(version, to: &encoding)
        append(deviceName, to: &encoding)
        append(devicePath, to: &encoding)
        append(username, to: &encoding)
        let sorted = Set(fingers).sorted()
        appendLength(sorted.count, to: &encoding)
        for finger in sorted { append(finger, to: &encoding) }
        if let prints {
            append("stored-prints", to: &encoding)
            appendLength(prints.count, to: &encoding)
            encoding.append(contentsOf: prints)
        }
        return DomainState(bytes: Array(SHA256.hash(data: encoding)))
    }

    private static func append(_ field: String, to encoding: inout [UInt8]) {
        let bytes = Array(field.utf8)
        appendLength(bytes.count, to: &encoding)
        encoding.append(contentsOf: bytes)
    }

    private static func appendLength(_ length: Int, to encoding: inout [UInt8]) {
        let value = UInt32(truncatingIfNeeded: length)
        encoding.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
    }
}
