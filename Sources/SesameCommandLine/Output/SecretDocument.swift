#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame
import SesameSecretsInUse

/// A value in `--json` (`get`, `read`): the item, its reference, and the
/// value as a string when it is UTF-8, in base64 otherwise, so that a script
/// never receives a value altered by decoding.
struct SecretDocument: Encodable {
    var service: String
    var name: String
    var reference: String
    var value: String?
    var valueBase64: String?

    init(_ reference: SecretReference, value secret: SecretBytes) {
        service = reference.service
        name = reference.name
        self.reference = reference.description
        secret.withUnsafeBytes { bytes in
            if let text = String(validating: bytes, as: UTF8.self) {
                value = text
            } else {
                valueBase64 = Data(bytes).base64EncodedString()
            }
        }
    }

    /// Prints the document on standard output.
    static func print(_ reference: SecretReference, value: SecretBytes) {
        Swift.print(JSONOutput.encode(SecretDocument(reference, value: value)))
    }
}
