// libFuzzer target for the CTAP2 command layer (`CTAP2Authenticator.handle`),
// which parses whatever a client writes to the authenticator (SPEC P5).
//
// The input is one request: a command byte and its CBOR parameters. A fresh
// authenticator answers it over a store that holds one discoverable
// credential (example.com, id 16 × 0x01, hmac-secret) and verifies the owner
// without asking, so every command's parsing and answering is reached. Any
// answer is fine except a crash, a hang or a sanitizer report; the harness
// checks what the layer promises: the answer starts with a CTAP 2.1 status
// byte, and an error is that one byte alone.
#if canImport(Glibc)
import Glibc
#endif
import Crypto
import Foundation
import FuzzSupport
import Sesame
import SesamePasskeys

/// A store that never prompts: one signing key for every credential, one
/// stored credential, nothing kept across inputs.
struct FuzzPasskeyStore: PasskeyStore {
    static let key = P256.Signing.PrivateKey()
    static let stored = PasskeyCredential(
        id: [UInt8](repeating: 1, count: 16),
        creation: PasskeyCreation(relyingPartyID: "example.com", userHandle: [1, 2, 3], userName: "alice", isDiscoverable: true,
                                    extensions: [HMACSecretExtension.identifier: HMACSecretExtension.state]),
        publicKey: try! PublicKey(algorithm: .p256, rawRepresentation: key.publicKey.x963Representation),
        created: Date(timeIntervalSince1970: 0), signatureCount: 7)

    func verifyOwner(for relyingPartyID: String, reason: String, context: AuthenticationContext) async throws {}

    func makeCredential(_ creation: PasskeyCreation, secrets: [String: [UInt8]], reason: String, context: AuthenticationContext) async throws
        -> PasskeyCredential
    {
        let publicKey = creation.algorithm == .es256 ? Self.stored.publicKey
            : try PublicKey(algorithm: .ed25519, rawRepresentation: [UInt8](repeating: 0, count: 32))
        return PasskeyCredential(id: [2] + creation.userHandle, creation: creation, publicKey: publicKey, created: Date(), signatureCount: 0)
    }

    func credentials(relyingPartyID: String, ids: [[UInt8]]) async throws -> [PasskeyCredential] {
        ids.filter { $0 == Self.stored.id && relyingPartyID == "example.com" }.map { _ in Self.stored }
    }

    func discoverableCredentials(relyingPartyID: String?) async throws -> [PasskeyCredential] {
        relyingPartyID == nil || relyingPartyID == "example.com" ? [Self.stored, Self.stored] : []
    }

    func nextSignatureCount(of credential: PasskeyCredential) async throws -> UInt32 { credential.signatureCount + 1 }

    func sign(_ data: [UInt8], with credential: PasskeyCredential, reason: String, context: AuthenticationContext) async throws -> [UInt8] {
        Array(try Self.key.signature(for: data).derRepresentation)
    }

    func secret(of credential: PasskeyCredential, for extensionIdentifier: String, reason: String, context: AuthenticationContext)
        async throws -> [UInt8]
    {
        [UInt8](repeating: 1, count: 32) + [UInt8](repeating: 0, count: 32)  // hmac-secret's CredRandoms, with UV and without
    }

    func delete(_ credential: PasskeyCredential) async throws {}
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCTAP2(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let request = Array(UnsafeBufferPointer(start: data, count: size))
    let answer = blocking {
        let authenticator = CTAP2Authenticator(store: FuzzPasskeyStore(), aaguid: [UInt8](repeating: 0, count: 16)) {
            AuthenticationContext(Authenticators(appName: "fuzz"))
        }
        return await authenticator.handle(request) { _ in }
    }
    precondition(!answer.isEmpty && CTAP2Status(rawValue: answer[0]) != nil)
    precondition(answer[0] == CTAP2Status.ok.rawValue || answer.count == 1)
    return 0
}

@_cdecl("FuzzCTAP2_main")
public func fuzzCTAP2Main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzCTAP2(data, size) }
}
