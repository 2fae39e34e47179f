import Foundation
import Sesame
import SesamePasskeys
import Testing

/// Relying party ids reach the owner's dialog, and an allowList decides
/// which passkeys a request may use: both are the client's words, checked
/// before they are trusted (SPEC P3, P5).
@Suite("P5: relying party ids with control characters, and allowLists with nothing usable")
struct CTAP2HostileNamesTests {
    private static let hostile = ["example.com\nSign in to your bank", "example.com\u{1B}[2J", "moc.elpmaxe\u{202E}", "a\u{0}b", "\u{7F}"]

    @Test("P5: a relying party id with control characters is INVALID_PARAMETER before any prompt", arguments: hostile)
    func controlCharacters(_ rp: String) async throws {
        let harness = CTAP2Harness()
        #expect(try await harness.send(0x01, CTAP2Harness.makeCredential(rp: rp)).status == 0x02)
        #expect(try await harness.send(0x02, [1: .text(rp), 2: .bytes(CTAP2Harness.clientDataHash)]).status == 0x02)
        let platform = try await PlatformPinUvAuth(number: 2, harness: harness)
        #expect(try await platform.token(permissions: 0x02, rpID: rp, harness: harness).status == 0x02)
        #expect(await harness.store.prompts.isEmpty)
    }

    @Test("P5: an allowList of only over-long or unknown-type ids is NO_CREDENTIALS, never the discoverable credentials")
    func unusableAllowList() async throws {
        let harness = CTAP2Harness()
        _ = try await harness.makeCredential(CTAP2Harness.makeCredential())
        let overLong = [UInt8](repeating: 7, count: CTAP2Authenticator.maximumCredentialIDLength + 1)
        let onlyOverLong = try await harness.send(0x02, [
            1: "example.com", 2: .bytes(CTAP2Harness.clientDataHash), 3: CTAP2Harness.descriptors([overLong, overLong]),
        ])
        #expect(onlyOverLong.status == 0x2E)
        let otherType = try await harness.send(0x02, [
            1: "example.com", 2: .bytes(CTAP2Harness.clientDataHash), 3: .array([.map(["id": .bytes([1]), "type": "other"])]),
        ])
        #expect(otherType.status == 0x2E)
    }
}
