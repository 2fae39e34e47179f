import Crypto
import Foundation
import Sesame
import SesamePasskeys
import Testing

@Suite("CTAP2 pinUvAuthTokens, credential management and hostile requests")
struct CTAP2TokenTests {
    @Test("P1: a token from getPinUvAuthTokenUsingUvWithPermissions makes a credential without asking again; a wrong pinUvAuthParam is PIN_AUTH_INVALID", arguments: [1, 2])
    func token(_ number: Int) async throws {
        let harness = CTAP2Harness()
        let platform = try await PlatformPinUvAuth(number: number, harness: harness)
        let (status, token) = try await platform.token(permissions: 0x03, rpID: "example.com", harness: harness)
        try #require(status == 0)
        let value = try #require(token)
        #expect(value.count == 32)
        #expect(await harness.store.prompts == ["Use your passkeys for example.com"])

        var parameters = CTAP2Harness.makeCredential()
        parameters[8] = .bytes(platform.authenticate(key: value, [UInt8](repeating: 0, count: 32)))
        parameters[9] = .int(number)
        #expect(try await harness.send(0x01, parameters).status == 0x33)
        parameters[8] = .bytes(platform.authenticate(key: value, CTAP2Harness.clientDataHash))
        #expect(try await harness.send(0x01, parameters).status == 0)
        #expect(await harness.store.prompts.count == 1)
        // Spent: the same token does not make another.
        #expect(try await harness.send(0x01, parameters).status == 0x33)

        let (_, other) = try await platform.token(permissions: 0x01, rpID: "other.example", harness: harness)
        parameters[8] = .bytes(platform.authenticate(key: try #require(other), CTAP2Harness.clientDataHash))
        #expect(try await harness.send(0x01, parameters).status == 0x40)  // bound to other.example
    }

    @Test(
        "SPEC P3: a token's prompt says what it is for: registering (makeCredential alone) says create, as the passkeys guide does",
        arguments: [(0x01, "Create a passkey for example.com"), (0x02, "Sign in to example.com"), (0x03, "Use your passkeys for example.com")]
    )
    func tokenPromptNamesTheAct(permissions: Int, prompt: String) async throws {
        let harness = CTAP2Harness()
        let platform = try await PlatformPinUvAuth(number: 2, harness: harness)
        let (status, _) = try await platform.token(permissions: permissions, rpID: "example.com", harness: harness)
        try #require(status == 0)
        #expect(await harness.store.prompts == [prompt])
    }

    @Test("SPEC D14, P1: a session lock ends the token at once: the client must get a new one, and the owner is asked again")
    func lockEndsToken() async throws {
        let harness = CTAP2Harness()
        let platform = try await PlatformPinUvAuth(number: 2, harness: harness)
        let token = try #require(try await platform.token(permissions: 0x01, rpID: "example.com", harness: harness).token)
        await harness.authenticator.sessionLocked()
        var parameters = CTAP2Harness.makeCredential()
        parameters[8] = .bytes(platform.authenticate(key: token, CTAP2Harness.clientDataHash))
        parameters[9] = 2
        #expect(try await harness.send(0x01, parameters).status == 0x33)
        let fresh = try #require(try await platform.token(permissions: 0x01, rpID: "example.com", harness: harness).token)
        parameters[8] = .bytes(platform.authenticate(key: fresh, CTAP2Harness.clientDataHash))
        #expect(try await harness.send(0x01, parameters).status == 0)
        #expect(await harness.store.prompts.count == 2)
    }

    @Test("P1: a token not used within 30 s expires, and its presence counts 30 s: later the owner is asked again")
    func tokenTimers() async throws {
        let harness = CTAP2Harness()
        let platform = try await PlatformPinUvAuth(number: 2, harness: harness)
        var parameters = CTAP2Harness.makeCredential()
        parameters[9] = 2
        let unused = try #require(try await platform.token(permissions: 0x01, rpID: "example.com", harness: harness).token)
        harness.clock.advance(31)
        parameters[8] = .bytes(platform.authenticate(key: unused, CTAP2Harness.clientDataHash))
        #expect(try await harness.send(0x01, parameters).status == 0x33)

        let (_, cmToken) = try await platform.token(permissions: 0x05, rpID: "example.com", harness: harness)
        let token = try #require(cmToken)
        #expect(try await harness.send(0x0A, [1: 1, 3: 2, 4: .bytes(platform.authenticate(key: token, [1]))]).status == 0x40)
        harness.clock.advance(31)  // used once: the token lives on, its presence no longer counts
        parameters[8] = .bytes(platform.authenticate(key: token, CTAP2Harness.clientDataHash))
        let before = await harness.store.prompts.count
        #expect(try await harness.send(0x01, parameters).status == 0)
        #expect(await harness.store.prompts.count == before + 1)
    }

    @Test("P1: getNextAssertion's state ends 30 s after the last answer")
    func assertionTimer() async throws {
        let harness = CTAP2Harness()
        for user in [UInt8(1), 2, 3] { _ = try await harness.makeCredential(CTAP2Harness.makeCredential(user: [user])) }
        #expect(try await harness.send(0x02, [1: "example.com", 2: .bytes(CTAP2Harness.clientDataHash)]).status == 0)
        harness.clock.advance(29)
        #expect(try await harness.send(0x08).status == 0)
        harness.clock.advance(30)
        #expect(try await harness.send(0x08).status == 0x30)
    }

    @Test("P1: permissions this authenticator does not grant, and mc without rpId, are refused before the owner is asked")
    func permissions() async throws {
        let harness = CTAP2Harness()
        let platform = try await PlatformPinUvAuth(number: 2, harness: harness)
        #expect(try await platform.token(permissions: 0x20, rpID: nil, harness: harness).status == 0x40)
        #expect(try await platform.token(permissions: 0x01, rpID: nil, harness: harness).status == 0x14)
        #expect(try await platform.token(permissions: 0, rpID: nil, harness: harness).status == 0x02)
        #expect(await harness.store.prompts.isEmpty)
        #expect(try await harness.send(0x06, [1: 2, 2: 1]).status == 0x35)
        #expect(try await harness.send(0x06, [1: 2, 2: 3]).status == 0x30)
        #expect(try await harness.send(0x06, [1: 2, 2: 7]).response?[5] == 5)
        #expect(try await harness.send(0x07).status == 0x30)
    }

    @Test("P1: credential management lists relying parties and credentials and deletes one under a cm token")
    func credentialManagement() async throws {
        let harness = CTAP2Harness()
        let (a, _) = try await harness.makeCredential(CTAP2Harness.makeCredential(rp: "a.example", user: [1]))
        _ = try await harness.makeCredential(CTAP2Harness.makeCredential(rp: "a.example", user: [2]))
        _ = try await harness.makeCredential(CTAP2Harness.makeCredential(rp: "b.example", user: [3]))
        let platform = try await PlatformPinUvAuth(number: 1, harness: harness)
        let token = try #require(try await platform.token(permissions: 0x04, rpID: nil, harness: harness).token)
        func send(_ subCommand: UInt8, _ parameters: [CBORValue: CBORValue]? = nil) async throws -> (status: UInt8, response: CBORValue?) {
            var request: [CBORValue: CBORValue] = [1: .int(Int(subCommand))]
            if let parameters {
                request[2] = .map(parameters)
            }
            if subCommand != 3, subCommand != 5 {
                let message = [subCommand] + (parameters.map { CBORValue.map($0).encoded } ?? [])
                request[3] = 1
                request[4] = .bytes(platform.authenticate(key: token, message))
            }
            return try await harness.send(0x0A, request)
        }
        #expect(try await send(1).response == .map([1: 3, 2: 1000]))
        let (_, firstRP) = try await send(2)
        #expect(firstRP?[5] == 2 && firstRP?[3]?["id"] == "b.example")
        #expect(try await send(3).response?[3]?["id"] == "a.example")
        #expect(try await send(3).status == 0x30)
        let hash = Array(SHA256.hash(data: Array("a.example".utf8)))
        let (_, firstCredential) = try await send(4, [1: .bytes(hash)])
        #expect(firstCredential?[9] == 2 && firstCredential?[6]?["id"] == .bytes([2]))
        #expect(try await send(5).response?[7]?["id"] == .bytes(a))
        #expect(try await send(6, [2: .map(["id": .bytes(a), "type": "public-key"])]).status == 0)
        #expect(await harness.store.all.count == 2)
        #expect(try await send(6, [2: .map(["id": .bytes(a), "type": "public-key"])]).status == 0x2E)
        #expect(try await harness.send(0x0A, [1: 1]).status == 0x36)
        #expect(try await harness.send(0x0A, [1: 1, 3: 1, 4: .bytes([UInt8](repeating: 0, count: 16))]).status == 0x33)
        #expect(await harness.store.prompts.count == 4)
    }

    @Test("P5: malformed requests answer one error byte and never crash", arguments: [
        ([], 0x03), ([0x55], 0x01), ([0x01], 0x14), ([0x01, 0xA1], 0x12), ([0x01, 0x01], 0x11), ([0x02, 0xFF], 0x12),
        ([0x01, 0xA1, 0x01, 0x01], 0x11), ([0x02, 0xA1, 0x01, 0x01], 0x11), ([0x06, 0xA0], 0x14), ([0x06, 0xA1, 0x02, 0x18, 0x63], 0x3E),
        ([0x0A, 0xA1, 0x01, 0x61, 0x78], 0x11), ([0x0A, 0xA1, 0x01, 0x09], 0x3E),
    ] as [([UInt8], UInt8)])
    func malformed(_ request: [UInt8], _ expected: UInt8) async throws {
        let harness = CTAP2Harness()
        let answer = await harness.authenticator.handle(request) { _ in }
        #expect(answer == [expected])
    }

    @Test("P5: every parameter's type, length and list bound is checked before the owner is asked")
    func parameters() async throws {
        let harness = CTAP2Harness()
        var wrongType = CTAP2Harness.makeCredential()
        wrongType[3] = .map(["id": "not bytes"])
        var longUser = CTAP2Harness.makeCredential()
        longUser[3] = .map(["id": .bytes([UInt8](repeating: 1, count: 65))])
        var shortHash = CTAP2Harness.makeCredential()
        shortHash[1] = .bytes([1, 2, 3])
        var noRP = CTAP2Harness.makeCredential()
        noRP[2] = nil
        var wrongOption = CTAP2Harness.makeCredential()
        wrongOption[7] = .map(["rk": 1])
        let longList = CTAP2Harness.makeCredential(excludeList: Array(repeating: [1], count: 65))
        for (parameters, status) in [(wrongType, 0x11), (longUser, 0x03), (shortHash, 0x03), (noRP, 0x14), (wrongOption, 0x11), (longList, 0x15)] as [([CBORValue: CBORValue], UInt8)] {
            #expect(try await harness.send(0x01, parameters).status == status)
        }
        #expect(try await harness.send(raw: [0x01] + [UInt8](repeating: 0, count: 7609)).status == 0x39)
        #expect(await harness.store.prompts.isEmpty)
    }
}
