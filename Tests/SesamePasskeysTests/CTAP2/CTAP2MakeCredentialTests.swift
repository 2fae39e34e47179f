import Crypto
import Foundation
import Sesame
import SesamePasskeys
import Testing

@Suite("CTAP2 getInfo, makeCredential and getAssertion")
struct CTAP2MakeCredentialTests {
    @Test("P1: getInfo names FIDO 2.1, built-in user verification without a PIN, tokens, both algorithms and the limits")
    func info() async throws {
        let harness = CTAP2Harness()
        let (status, info) = try await harness.send(0x04)
        #expect(status == 0)
        #expect(info?[1] == .array(["FIDO_2_0", "FIDO_2_1"]))
        #expect(info?[2] == .array(["credProtect", "hmac-secret"]))
        #expect(info?[3] == .bytes(CTAP2Harness.aaguid))
        let options = try #require(info?[4])
        for (name, value) in ["rk": true, "up": true, "uv": true, "plat": false, "credMgmt": true, "pinUvAuthToken": true, "makeCredUvNotRqd": false] {
            #expect(options[name] == .bool(value), "\(name)")
        }
        #expect(options["clientPin"] == nil)
        #expect(info?[5] == 7609)
        #expect(info?[6] == .array([2, 1]))
        #expect(info?[9] == .array(["usb"]))
        #expect(info?[0x0A] == .array([.map(["alg": -7, "type": "public-key"]), .map(["alg": -8, "type": "public-key"])]))
    }

    @Test("P1: makeCredential verifies the owner, lays out authData (rpIdHash, UP|UV|AT, counter, aaguid, id, COSE key) and getAssertion's signature verifies", arguments: [-7, -8])
    func makeAndAssert(_ algorithm: Int) async throws {
        let harness = CTAP2Harness()
        let (status, response) = try await harness.send(0x01, CTAP2Harness.makeCredential(algorithms: [-257, algorithm]))
        try #require(status == 0)
        #expect(response?[1] == "none")
        #expect(response?[3] == .map([:]))
        let authData = try #require(response?[2]?.bytesValue)
        #expect(Array(authData[0..<32]) == Array(SHA256.hash(data: Array("example.com".utf8))))
        #expect(authData[32] == 0x45)  // UP | UV | AT
        #expect(Array(authData[37..<53]) == CTAP2Harness.aaguid)
        let idLength = Int(authData[53]) << 8 | Int(authData[54])
        let id = Array(authData[55..<55 + idLength])
        let (coseKey, length) = try CBORValue.decodePrefix(authData[(55 + idLength)...])
        #expect(55 + idLength + length == authData.count)
        #expect(coseKey[3]?.intValue == algorithm)
        #expect(await harness.store.prompts == ["Create a passkey for example.com"])

        let (signStatus, assertion) = try await harness.send(
            0x02, [1: "example.com", 2: .bytes(CTAP2Harness.clientDataHash), 3: CTAP2Harness.descriptors([id])])
        try #require(signStatus == 0)
        #expect(assertion?[1]?["id"] == .bytes(id))
        let signed = try #require(assertion?[2]?.bytesValue)
        #expect(signed.count == 37 && signed[32] == 0x05)
        #expect(Array(signed[33..<37]) == [0, 0, 0, 1])
        let signature = try #require(assertion?[3]?.bytesValue)
        let x = try #require(coseKey[-2]?.bytesValue)
        if algorithm == -7 {
            #expect(coseKey[1] == 2 && coseKey[-1] == 1)
            let y = try #require(coseKey[-3]?.bytesValue)
            let key = try P256.Signing.PublicKey(x963Representation: [4] + x + y)
            let ecdsa = try P256.Signing.ECDSASignature(derRepresentation: signature)
            #expect(key.isValidSignature(ecdsa, for: signed + CTAP2Harness.clientDataHash))
        } else {
            #expect(coseKey[1] == 1 && coseKey[-1] == 6)
            let key = try Curve25519.Signing.PublicKey(rawRepresentation: x)
            #expect(key.isValidSignature(signature, for: signed + CTAP2Harness.clientDataHash))
        }
        #expect(assertion?[4]?["id"] == .bytes([1, 2, 3]))
        #expect(await harness.store.prompts.count == 2)
    }

    @Test("P2: a credential of the excludeList answers CREDENTIAL_EXCLUDED only after the owner is verified")
    func excluded() async throws {
        let harness = CTAP2Harness()
        let (id, _) = try await harness.makeCredential()
        let (status, _) = try await harness.send(0x01, CTAP2Harness.makeCredential(excludeList: [[9, 9], id]))
        #expect(status == 0x19)
        #expect(await harness.store.prompts.count == 2)
        #expect(await harness.store.all.count == 1)
        let (other, _) = try await harness.send(0x01, CTAP2Harness.makeCredential(rp: "other.example", excludeList: [id]))
        #expect(other == 0)
    }

    @Test("P1: no supported algorithm is UNSUPPORTED_ALGORITHM; up:false is INVALID_OPTION; a failed verification makes nothing")
    func refusals() async throws {
        let harness = CTAP2Harness()
        #expect(try await harness.send(0x01, CTAP2Harness.makeCredential(algorithms: [-257, -35])).status == 0x26)
        var parameters = CTAP2Harness.makeCredential()
        parameters[7] = .map(["up": false])
        #expect(try await harness.send(0x01, parameters).status == 0x2C)
        await harness.store.setFailure(AuthenticationError.authenticationFailed)
        #expect(try await harness.send(0x01, CTAP2Harness.makeCredential()).status == 0x3F)
        await harness.store.setFailure(AuthenticationError.biometryLockout)
        #expect(try await harness.send(0x01, CTAP2Harness.makeCredential()).status == 0x3C)
        await harness.store.setFailure(AuthenticationError.userCancel)
        #expect(try await harness.send(0x01, CTAP2Harness.makeCredential()).status == 0x27)
        #expect(await harness.store.all.isEmpty)
    }

    @Test("P3: a request cancelled while the owner is asked answers KEEPALIVE_CANCEL")
    func cancelled() async throws {
        let harness = CTAP2Harness()
        await harness.store.setWaitsForCancel()
        let request = [UInt8(0x01)] + CBORValue.map(CTAP2Harness.makeCredential()).encoded
        let seen = Recorder()
        let task = Task { await harness.authenticator.handle(request) { seen.append($0) } }
        while await harness.store.prompts.isEmpty { await Task.yield() }
        task.cancel()
        #expect(await task.value == [0x2D])
    }

    @Test("P1: the owner is verified before the answer and the transport is told UPNEEDED first")
    func keepalive() async throws {
        let harness = CTAP2Harness()
        let seen = Recorder()
        let request = [UInt8(0x01)] + CBORValue.map(CTAP2Harness.makeCredential()).encoded
        let answer = await harness.authenticator.handle(request) { seen.append($0) }
        #expect(answer.first == 0)
        #expect(seen.values == [.upNeeded])
    }

    @Test("P1: user and relying party names longer than 64 bytes are cut at a character boundary")
    func truncation() async throws {
        let harness = CTAP2Harness()
        _ = try await harness.makeCredential(CTAP2Harness.makeCredential(name: String(repeating: "é", count: 40)))
        let stored = try #require(await harness.store.all.first)
        #expect(stored.creation.userName == String(repeating: "é", count: 32))
    }
}

/// Collects keepalive statuses across the `@Sendable` callback.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [CTAP2Keepalive] = []
    func append(_ value: CTAP2Keepalive) { lock.withLock { stored.append(value) } }
    var values: [CTAP2Keepalive] { lock.withLock { stored } }
}
