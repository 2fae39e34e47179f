import Crypto
import Foundation
import Sesame
import SesamePasskeys
import Testing

/// State one request begins (getNextAssertion's credentials, a credential
/// enumeration) is the requester's: the connection and channel that sent
/// it. Another host continuing it would get a signature over someone
/// else's clientDataHash, or a list it had no token for.
@Suite("P1: getNextAssertion and credential enumeration belong to the requester that began them")
struct CTAP2RequesterTests {
    private static let hostA = CTAPHIDRequester(connection: 1, channel: 0x10)
    private static let otherConnection = CTAPHIDRequester(connection: 2, channel: 0x10)
    private static let otherChannel = CTAPHIDRequester(connection: 1, channel: 0x11)

    private static func send(
        _ harness: CTAP2Harness, _ command: UInt8, _ parameters: [CBORValue: CBORValue]? = nil, from requester: CTAPHIDRequester
    ) async throws -> (status: UInt8, response: CBORValue?) {
        let answer = await harness.authenticator.handle([command] + (parameters.map { CBORValue.map($0).encoded } ?? []), from: requester) { _ in }
        let status = try #require(answer.first)
        return (status, answer.count > 1 ? try CBORValue(decoding: answer.dropFirst()) : nil)
    }

    @Test("P1: getNextAssertion from another connection or channel is NOT_ALLOWED, and the host that began it still continues")
    func nextAssertion() async throws {
        let harness = CTAP2Harness()
        for user in [UInt8(1), 2, 3] { _ = try await harness.makeCredential(CTAP2Harness.makeCredential(user: [user])) }
        let (status, first) = try await Self.send(
            harness, 0x02, [1: "example.com", 2: .bytes(CTAP2Harness.clientDataHash)], from: Self.hostA)
        try #require(status == 0)
        #expect(first?[5] == 3)
        for other in [Self.otherConnection, Self.otherChannel] {
            #expect(try await Self.send(harness, 0x08, from: other).status == 0x30, "\(other) continued another host's getAssertion")
            // Another host's unrelated command leaves the state alone.
            #expect(try await Self.send(harness, 0x04, from: other).status == 0)
        }
        #expect(try await Self.send(harness, 0x08, from: Self.hostA).status == 0)
        #expect(try await Self.send(harness, 0x08, from: Self.hostA).status == 0)
        #expect(try await Self.send(harness, 0x08, from: Self.hostA).status == 0x30)
    }

    @Test("P1: enumerateRPsGetNextRP and enumerateCredentialsGetNextCredential from another host are NOT_ALLOWED")
    func enumeration() async throws {
        let harness = CTAP2Harness()
        _ = try await harness.makeCredential(CTAP2Harness.makeCredential(rp: "a.example", user: [1]))
        _ = try await harness.makeCredential(CTAP2Harness.makeCredential(rp: "a.example", user: [2]))
        _ = try await harness.makeCredential(CTAP2Harness.makeCredential(rp: "b.example", user: [3]))
        let platform = try await PlatformPinUvAuth(number: 2, harness: harness)
        let token = try #require(try await platform.token(permissions: 0x04, rpID: nil, harness: harness).token)
        func begin(_ subCommand: UInt8, _ parameters: [CBORValue: CBORValue]? = nil) async throws -> UInt8 {
            var request: [CBORValue: CBORValue] = [1: .int(Int(subCommand)), 3: 2]
            if let parameters { request[2] = .map(parameters) }
            let message = [subCommand] + (parameters.map { CBORValue.map($0).encoded } ?? [])
            request[4] = .bytes(platform.authenticate(key: token, message))
            return try await Self.send(harness, 0x0A, request, from: Self.hostA).status
        }
        #expect(try await begin(2) == 0)
        for other in [Self.otherConnection, Self.otherChannel] {
            #expect(try await Self.send(harness, 0x0A, [1: 3], from: other).status == 0x30)
        }
        #expect(try await Self.send(harness, 0x0A, [1: 3], from: Self.hostA).status == 0)
        #expect(try await begin(4, [1: .bytes(Array(SHA256.hash(data: Array("a.example".utf8))))]) == 0)
        for other in [Self.otherConnection, Self.otherChannel] {
            #expect(try await Self.send(harness, 0x41, [1: 5], from: other).status == 0x30)
        }
        #expect(try await Self.send(harness, 0x0A, [1: 5], from: Self.hostA).status == 0)
    }

    @Test("P3: the owner's dialog names the program that asked when the transport knows it, and only then (issue 44)")
    func dialogNamesTheClient() async throws {
        let harness = CTAP2Harness()
        let firefox = CTAPHIDRequester(connection: 7, channel: 0x20, client: "`/usr/bin/firefox` (pid 4242)")
        let parameters = CTAP2Harness.makeCredential()
        #expect(try await Self.send(harness, 0x01, parameters, from: firefox).status == 0)
        #expect(try await Self.send(harness, 0x02, [1: "example.com", 2: .bytes(CTAP2Harness.clientDataHash)], from: firefox).status == 0)
        #expect(try await Self.send(harness, 0x0B, from: firefox).status == 0)
        let named = await harness.store.prompts
        #expect(named.count >= 3)
        for prompt in named {
            #expect(prompt.hasSuffix(", asked by `/usr/bin/firefox` (pid 4242)"), "\(prompt)")
        }
        #expect(named.contains { $0.hasPrefix("Create a passkey for example.com") })
        #expect(named.contains { $0.hasPrefix("Sign in to example.com") })

        let unnamed = CTAP2Harness()
        #expect(try await Self.send(unnamed, 0x01, parameters, from: Self.hostA).status == 0)
        let prompts = await unnamed.store.prompts
        #expect(prompts == ["Create a passkey for example.com"])
    }
}
