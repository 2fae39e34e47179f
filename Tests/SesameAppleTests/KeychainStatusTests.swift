import Sesame
@testable import SesameApple
import Testing

@Suite("SPEC D4: OSStatus results map to vault statuses")
struct KeychainStatusTests {
    @Test("SPEC D4: errSecSuccess is no error")
    func success() {
        #expect(KeychainStatus.error(for: 0, item: "s/a") == nil)
    }

    @Test("SPEC D4: Each documented OSStatus", arguments: [
        (Int32(-128), VaultError.Status.userCanceled),
        (-25300, .itemNotFound),
        (-25293, .authFailed),
        (-25299, .duplicateItem),
        (-25308, .interactionNotAllowed),
        (-25291, .notAvailable),
        (-50, .invalidArgument),
    ])
    func mapped(status: Int32, expected: VaultError.Status) {
        let error = KeychainStatus.error(for: status, item: "svc/acct")
        #expect(error?.status == expected)
        #expect(error?.message.contains("svc/acct") == true)
        if expected != .invalidArgument { #expect(Int32(expected.rawValue) == status) }
    }

    @Test("SPEC D4: Any other OSStatus is a failure that carries the number", arguments: [Int32(-34018), -26276, -4, 1])
    func generic(status: Int32) {
        let error = KeychainStatus.error(for: status, item: "svc/acct")
        #expect(error?.status == .ioError)
        #expect(error?.message.contains("\(status)") == true)
    }
}
