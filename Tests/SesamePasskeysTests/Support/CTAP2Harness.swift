import Crypto
import Foundation
import Sesame
import SesameTesting
import Testing
import SesamePasskeys
import CryptoExtras

/// An authenticator over an ``InMemoryPasskeyStore``, and a client's side
/// of it: requests as a platform sends them, and CTAP 2.1's PIN/UV auth
/// protocols written again here from swift-crypto's primitives (§6.5.6,
/// §6.5.7), so the tests do not check the authenticator against itself.
struct CTAP2Harness {
    static let aaguid = [UInt8](repeating: 0xA5, count: 16)
    let store = InMemoryPasskeyStore()
    let authenticator: CTAP2Authenticator

    /// The authenticator's clock, moved by hand.
    let clock = HandClock()

    init() {
        authenticator = CTAP2Authenticator(
            store: store, aaguid: Self.aaguid, makeContext: { AuthenticationContext(Authenticators(appName: "ctap2-tests")) },
            now: { [clock] in clock.now })
    }

    /// Sends `command` with `parameters`; returns the status byte and the decoded response.
    func send(_ command: UInt8, _ parameters: [CBORValue: CBORValue]? = nil) async throws -> (status: UInt8, response: CBORValue?) {
        try await send(raw: [command] + (parameters.map { CBORValue.map($0).encoded } ?? []))
    }

    func send(raw: [UInt8]) async throws -> (status: UInt8, response: CBORValue?) {
        let answer = await authenticator.handle(raw) { _ in }
        let status = try #require(answer.first)
        return (status, answer.count > 1 ? try CBORValue(decoding: answer.dropFirst()) : nil)
    }

    static let clientDataHash = Array(SHA256.hash(data: Array("client data".utf8)))

    /// A makeCredential request's parameters.
    static func makeCredential(
        rp: String = "example.com", user: [UInt8] = [1, 2, 3], name: String = "alice", algorithms: [Int] = [-7], rk: Bool = true,
        excludeList: [[UInt8]]? = nil, extensions: [CBORValue: CBORValue]? = nil
    ) -> [CBORValue: CBORValue] {
        var parameters: [CBORValue: CBORValue] = [
            1: .bytes(clientDataHash), 2: .map(["id": .text(rp), "name": "Example"]),
            3: .map(["id": .bytes(user), "name": .text(name), "displayName": .text(name.capitalized)]),
            4: .array(algorithms.map { .map(["alg": .int($0), "type": "public-key"]) }), 7: .map(["rk": .bool(rk)]),
        ]
        if let excludeList { parameters[5] = descriptors(excludeList) }
        if let extensions { parameters[6] = .map(extensions) }
        return parameters
    }

    static func descriptors(_ ids: [[UInt8]]) -> CBORValue {
        .array(ids.map { .map(["id": .bytes($0), "type": "public-key"]) })
    }

    /// Makes a credential; returns its id and attested authenticator data.
    func makeCredential(_ parameters: [CBORValue: CBORValue] = makeCredential()) async throws -> (id: [UInt8], authData: [UInt8]) {
        let (status, response) = try await send(0x01, parameters)
        try #require(status == 0)
        let authData = try #require(response?[2]?.bytesValue)
        let length = Int(authData[53]) << 8 | Int(authData[54])
        return (Array(authData[55..<55 + length]), authData)
    }
}

/// The platform's half of a PIN/UV auth protocol.
struct PlatformPinUvAuth {
    let number: Int
    let coseKey: CBORValue
    let sharedSecret: [UInt8]

    /// Agrees a shared secret with the authenticator's getKeyAgreement answer.
    init(number: Int, harness: CTAP2Harness) async throws {
        try await self.init(number: number, authenticator: harness.authenticator)
    }

    /// The same with any authenticator (one over a vault, say).
    init(number: Int, authenticator: CTAP2Authenticator) async throws {
        let answer = await authenticator.handle([0x06] + CBORValue.map([1: .int(number), 2: 2]).encoded) { _ in }
        let status = try #require(answer.first)
        let response = answer.count > 1 ? try CBORValue(decoding: answer.dropFirst()) : nil
        try #require(status == 0)
        let key = try #require(response?[1])
        let x = try #require(key[-2]?.bytesValue), y = try #require(key[-3]?.bytesValue)
        let peer = try P256.KeyAgreement.PublicKey(x963Representation: [4] + x + y)
        let mine = P256.KeyAgreement.PrivateKey()
        let point = Array(mine.publicKey.x963Representation)
        coseKey = .map([1: 2, 3: -25, -1: 1, -2: .bytes(Array(point[1..<33])), -3: .bytes(Array(point[33...]))])
        let z = try mine.sharedSecretFromKeyAgreement(with: peer).withUnsafeBytes { Array($0) }
        self.number = number
        if number == 1 {
            sharedSecret = Array(SHA256.hash(data: z))
        } else {
            let derive = { (info: String) in
                HKDF<SHA256>.deriveKey(
                    inputKeyMaterial: SymmetricKey(data: z), salt: [UInt8](repeating: 0, count: 32), info: Array(info.utf8),
                    outputByteCount: 32
                ).withUnsafeBytes { Array($0) }
            }
            sharedSecret = derive("CTAP2 HMAC key") + derive("CTAP2 AES key")
        }
    }

    private var aesKey: SymmetricKey { SymmetricKey(data: number == 1 ? sharedSecret : Array(sharedSecret[32...])) }

    func encrypt(_ plaintext: [UInt8]) throws -> [UInt8] {
        let iv = number == 1 ? [UInt8](repeating: 0, count: 16) : (0..<16).map { _ in UInt8.random(in: 0...255) }
        let ciphertext = try AES._CBC.encrypt(plaintext, using: aesKey, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
        return (number == 1 ? [] : iv) + Array(ciphertext)
    }

    func decrypt(_ ciphertext: [UInt8]) throws -> [UInt8] {
        let iv = number == 1 ? [UInt8](repeating: 0, count: 16) : Array(ciphertext[..<16])
        let body = number == 1 ? ciphertext[...] : ciphertext[16...]
        return Array(try AES._CBC.decrypt(body, using: aesKey, iv: AES._CBC.IV(ivBytes: iv), noPadding: true))
    }

    func authenticate(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let mac = Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key.prefix(32))))
        return number == 1 ? Array(mac.prefix(16)) : mac
    }

    /// A pinUvAuthToken by getPinUvAuthTokenUsingUvWithPermissions.
    func token(permissions: Int, rpID: String?, harness: CTAP2Harness) async throws -> (status: UInt8, token: [UInt8]?) {
        var parameters: [CBORValue: CBORValue] = [1: .int(number), 2: 6, 3: coseKey, 9: .int(permissions)]
        if let rpID { parameters[0x0A] = .text(rpID) }
        let (status, response) = try await harness.send(0x06, parameters)
        guard status == 0 else { return (status, nil) }
        return (status, try decrypt(try #require(response?[2]?.bytesValue)))
    }
}

/// A clock the test moves: the token's and getNextAssertion's timers read it.
final class HandClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}
