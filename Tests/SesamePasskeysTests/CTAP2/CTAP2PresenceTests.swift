import Crypto
import Foundation
import Sesame
import SesamePasskeys
import Testing

/// SPEC P2 for getAssertion: every UP=1 signature and every hmac-secret
/// output follows an act of the owner. One pinUvAuthToken (one scan) gives
/// one UP=1 assertion; `up` false gives UP=0 and UV=0 and spends nothing.
@Suite("P2: one act of the owner, one sign-in")
struct CTAP2PresenceTests {
    private static let flags = 32

    private static func request(
        id: [UInt8], clientDataHash: [UInt8], up: Bool, platform: PlatformPinUvAuth, token: [UInt8],
        extensions: [CBORValue: CBORValue]? = nil
    ) -> [CBORValue: CBORValue] {
        var parameters: [CBORValue: CBORValue] = [
            1: "example.com", 2: .bytes(clientDataHash), 3: CTAP2Harness.descriptors([id]), 5: .map(["up": .bool(up)]),
            6: .bytes(platform.authenticate(key: token, clientDataHash)), 7: .int(platform.number),
        ]
        if let extensions { parameters[4] = .map(extensions) }
        return parameters
    }

    private static func hmacSecretInput(_ platform: PlatformPinUvAuth, salt: [UInt8]) throws -> CBORValue {
        let saltEnc = try platform.encrypt(salt)
        return .map([
            1: platform.coseKey, 2: .bytes(saltEnc), 3: .bytes(platform.authenticate(key: platform.sharedSecret, saltEnc)),
            4: .int(platform.number),
        ])
    }

    @Test("P2: 20 getAssertions with up:false and one token are UP=0 UV=0 with no hmac-secret output; the token's one UP=1 assertion is still there, then no more")
    func upFalseSpendsNothing() async throws {
        let harness = CTAP2Harness()
        let (id, _) = try await harness.makeCredential(CTAP2Harness.makeCredential(rk: false, extensions: ["hmac-secret": true]))
        let platform = try await PlatformPinUvAuth(number: 2, harness: harness)
        let token = try #require(try await platform.token(permissions: 0x02, rpID: "example.com", harness: harness).token)
        let prompts = await harness.store.prompts.count
        for round in 0..<20 {
            let hash = Array(SHA256.hash(data: Array("challenge \(round)".utf8)))
            let salt = (0..<32).map { UInt8(truncatingIfNeeded: $0 &+ round) }
            let (status, response) = try await harness.send(
                0x02,
                Self.request(id: id, clientDataHash: hash, up: false, platform: platform, token: token,
                             extensions: ["hmac-secret": try Self.hmacSecretInput(platform, salt: salt)]))
            try #require(status == 0)
            let authData = try #require(response?[2]?.bytesValue)
            #expect(authData[Self.flags] & 0x01 == 0, "UP set on an up:false assertion (round \(round))")
            #expect(authData[Self.flags] & 0x04 == 0, "UV set on an up:false assertion (round \(round))")
            #expect(authData[Self.flags] & 0x80 == 0, "an hmac-secret output without an act of the owner (round \(round))")
        }
        let (status, response) = try await harness.send(
            0x02, Self.request(id: id, clientDataHash: CTAP2Harness.clientDataHash, up: true, platform: platform, token: token))
        try #require(status == 0)
        #expect(try #require(response?[2]?.bytesValue)[Self.flags] & 0x05 == 0x05)
        #expect(await harness.store.prompts.count == prompts, "the token's own scan covers its one UP=1 assertion")
        for round in 0..<19 {
            let hash = Array(SHA256.hash(data: Array("again \(round)".utf8)))
            let again = try await harness.send(0x02, Self.request(id: id, clientDataHash: hash, up: true, platform: platform, token: token))
            #expect(again.status == 0x33, "a second UP=1 assertion from one token")
        }
    }

    @Test("P2: a pre-flight without a token (up:false, zero clientDataHash) is signed UP=0 UV=0, and still only after the owner acted")
    func preflightWithoutToken() async throws {
        let harness = CTAP2Harness()
        let (id, _) = try await harness.makeCredential(CTAP2Harness.makeCredential(rk: false))
        let prompts = await harness.store.prompts.count
        let (status, response) = try await harness.send(0x02, [
            1: "example.com", 2: .bytes([UInt8](repeating: 0, count: 32)), 3: CTAP2Harness.descriptors([id]),
            5: .map(["up": false]),
        ])
        try #require(status == 0)
        #expect(try #require(response?[2]?.bytesValue)[Self.flags] & 0x05 == 0)
        #expect(await harness.store.prompts.count == prompts + 1)
    }
}
