import Benchmark
import Crypto
import Foundation
import Glibc
import Sesame
import SesameLinux
import SesamePasskeys
import SesameTesting

// authenticatorGetAssertion through `sesame passkey serve`'s parts on a HID
// socket (HIDReportSocketServer → CTAPHIDServer → CTAP2Authenticator), as a
// browser sends it: one CTAPHID CBOR message with an allowList, answered
// with a signature. Two rows in the same run, through the same client:
//
// - the vault: the passkey is a protected key under `biometry-any`; the
//   owner's scan was made once, so each request runs its verification
//   inside the 300-second reuse window (no prompt), reads the credential's
//   record, unwraps and uses the key, and advances its counter durably;
// - the floor: the same CTAPHID and CTAP2 code over a store whose key is a
//   PEM file signed by swift-crypto, no vault, no check, no counter write.
//
// Run: cd Benchmarks && swift package --disable-sandbox benchmark --target PasskeyBenchmark

/// Just enough CBOR for the requests (SesamePasskeys' codec is the package's own).
enum RequestCBOR {
    static func head(_ major: UInt8, _ value: Int) -> [UInt8] {
        switch value {
        case 0..<24: [major << 5 | UInt8(value)]
        case 24..<256: [major << 5 | 24, UInt8(value)]
        default: [major << 5 | 25, UInt8(value >> 8), UInt8(value & 0xFF)]
        }
    }
    static func int(_ value: Int) -> [UInt8] { value >= 0 ? head(0, value) : head(1, -1 - value) }
    static func bytes(_ value: [UInt8]) -> [UInt8] { head(2, value.count) + value }
    static func text(_ value: String) -> [UInt8] { head(3, value.utf8.count) + Array(value.utf8) }
    static func map(_ entries: [([UInt8], [UInt8])]) -> [UInt8] { head(5, entries.count) + entries.flatMap { $0.0 + $0.1 } }
    static func array(_ items: [[UInt8]]) -> [UInt8] { head(4, items.count) + items.flatMap { $0 } }
}

/// A CTAPHID client on the socket: INIT once, then CBOR messages.
final class HIDClient: @unchecked Sendable {
    private let descriptor: Int32
    private var channel: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]

    init(socket path: String) {
        descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        precondition(connected == 0, "cannot connect to \(path)")
        let nonce: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let answer = transact(command: 0x86, nonce)
        precondition(answer.count >= 12 && Array(answer[0..<8]) == nonce, "no INIT answer")
        channel = Array(answer[8..<12])
    }

    /// One message out, its answer back (keepalives skipped).
    func transact(command: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var packet = channel + [command, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload.prefix(57)
        write(packet)
        var rest = payload.dropFirst(57), sequence: UInt8 = 0
        while !rest.isEmpty {
            packet = channel + [sequence] + rest.prefix(59)
            write(packet)
            rest = rest.dropFirst(59)
            sequence += 1
        }
        var first = read()
        while first[4] == 0xBB { first = read() }
        precondition(first[4] == command, "CTAPHID answered \(first[4])")
        let length = Int(first[5]) << 8 | Int(first[6])
        var answer = Array(first[7..<64].prefix(length))
        while answer.count < length { answer += read()[5..<64].prefix(length - answer.count) }
        return answer
    }

    private func write(_ packet: [UInt8]) {
        let report = packet + [UInt8](repeating: 0, count: 64 - packet.count)
        _ = report.withUnsafeBytes { send(descriptor, $0.baseAddress, 64, 0) }
    }

    private func read() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64)
        var offset = 0
        while offset < 64 {
            let got = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + offset, 64 - offset, 0) }
            precondition(got > 0, "the authenticator closed the socket")
            offset += got
        }
        return bytes
    }
}

/// A store whose one passkey is a PEM file signed by swift-crypto: the floor.
struct FilePasskeyStore: PasskeyStore {
    let file: String
    let credential: PasskeyCredential

    func verifyOwner(for relyingPartyID: String, reason: String, context: AuthenticationContext) async throws {}
    func makeCredential(_ creation: PasskeyCreation, secrets: [String: [UInt8]], reason: String, context: AuthenticationContext) async throws
        -> PasskeyCredential { credential }
    func credentials(relyingPartyID: String, ids: [[UInt8]]) async throws -> [PasskeyCredential] {
        ids.contains(credential.id) ? [credential] : []
    }
    func discoverableCredentials(relyingPartyID: String?) async throws -> [PasskeyCredential] { [] }
    func nextSignatureCount(of credential: PasskeyCredential) async throws -> UInt32 { credential.signatureCount + 1 }
    func sign(_ data: [UInt8], with credential: PasskeyCredential, reason: String, context: AuthenticationContext) async throws -> [UInt8] {
        let key = try P256.Signing.PrivateKey(pemRepresentation: try String(contentsOfFile: file, encoding: .utf8))
        return Array(try key.signature(for: data).derRepresentation)
    }
    func secret(of credential: PasskeyCredential, for extensionIdentifier: String, reason: String, context: AuthenticationContext)
        async throws -> [UInt8] { [] }
    func delete(_ credential: PasskeyCredential) async throws {}
}

/// Both authenticators on their sockets, a client of each, and the request.
struct Rig: Sendable {
    let vault: HIDClient
    let floor: HIDClient
    let vaultRequest: [UInt8]
    let floorRequest: [UInt8]
}

actor Rigs {
    static let shared = Rigs()
    private var rig: Rig?

    private static func serve(_ authenticator: CTAP2Authenticator, at path: String) throws -> HIDReportSocketServer {
        let server = try HIDReportSocketServer(path: path)
        Task {
            try await server.serve { connection in
                await CTAPHIDServer.serve(authenticator, reports: connection.reports, send: connection.send)
            }
        }
        return server
    }

    static func getAssertion(_ id: [UInt8]) -> [UInt8] {
        [0x02] + RequestCBOR.map([
            (RequestCBOR.int(1), RequestCBOR.text("example.com")),
            (RequestCBOR.int(2), RequestCBOR.bytes([UInt8](repeating: 0x42, count: 32))),
            (RequestCBOR.int(3), RequestCBOR.array([RequestCBOR.map([(RequestCBOR.text("id"), RequestCBOR.bytes(id)),
                                                                     (RequestCBOR.text("type"), RequestCBOR.text("public-key"))])])),
        ])
    }

    func rig() async throws -> Rig {
        if let rig { return rig }
        let directory = NSTemporaryDirectory() + "sesame-bench-passkey-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let sensor = SimulatedSensor()
        let clock = SystemClock()
        let authenticators = Authenticators(appName: "benchmarks", sensor: sensor, clock: clock, reuseWindow: InMemoryReuseWindowStore(clock: clock))
        let vault = try await Vault.create(at: directory + "/vault/vault.sqlite", slots: [.device()], authenticators: authenticators).vault
        let store = VaultPasskeyStore(vault: vault, accessControl: .biometryAny)
        let makeContext: @Sendable () -> AuthenticationContext = {
            let context = AuthenticationContext(authenticators)
            context.reuseDuration = 300
            return context
        }
        // The passkey, made after the one scan; every request after it reuses the match.
        let context = makeContext()
        sensor.present(.match)
        try await store.verifyOwner(for: "example.com", reason: "Create a passkey for example.com", context: context)
        let made = try await store.makeCredential(
            PasskeyCreation(relyingPartyID: "example.com", userHandle: [1, 2, 3], algorithm: .es256, isDiscoverable: false),
            secrets: [:], reason: "Create", context: context)
        _ = try Self.serve(CTAP2Authenticator(store: store, aaguid: CTAP2Authenticator.sesameAAGUID, makeContext: makeContext),
                           at: directory + "/vault.sock")

        let file = directory + "/passkey.pem"
        let key = P256.Signing.PrivateKey()
        try key.pemRepresentation.write(toFile: file, atomically: true, encoding: .utf8)
        let floorCredential = PasskeyCredential(
            id: [UInt8](repeating: 7, count: 32),
            creation: PasskeyCreation(relyingPartyID: "example.com", userHandle: [1, 2, 3], isDiscoverable: false),
            publicKey: try PublicKey(algorithm: .p256, rawRepresentation: key.publicKey.x963Representation), created: Date(), signatureCount: 0)
        _ = try Self.serve(CTAP2Authenticator(store: FilePasskeyStore(file: file, credential: floorCredential),
                                              aaguid: CTAP2Authenticator.sesameAAGUID, makeContext: makeContext),
                           at: directory + "/floor.sock")

        // The clients' INIT blocks on the socket: off the pool the authenticators answer on.
        let vaultClient = await offPool { HIDClient(socket: directory + "/vault.sock") }
        let floorClient = await offPool { HIDClient(socket: directory + "/floor.sock") }
        let ready = Rig(vault: vaultClient, floor: floorClient,
                        vaultRequest: Self.getAssertion(made.id), floorRequest: Self.getAssertion(floorCredential.id))
        for (client, request) in [(ready.vault, ready.vaultRequest), (ready.floor, ready.floorRequest)] {
            let answer = await offPool { client.transact(command: 0x90, request) }
            precondition(answer.first == 0, "GetAssertion failed with CTAP status \(answer.first ?? 0xFF)")
        }
        rig = ready
        return ready
    }
}

/// Blocking socket I/O on a thread of its own, off the cooperative pool the
/// authenticator answers on.
func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

let benchmarks: @Sendable () -> Void = {
    // One request per sample, so p99 is a request's; both rows pay the
    // same thread start that keeps the blocking client off the pool.
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput], scalingFactor: .one,
                                                maxDuration: .seconds(20), maxIterations: 3000)
    Benchmark("GetAssertion on the HID socket, key in a PEM file signed by swift-crypto (floor)", configuration: configuration) { benchmark in
        let rig = try await Rigs.shared.rig()
        let iterations = benchmark.scaledIterations
        benchmark.startMeasurement()
        await offPool { for _ in iterations { blackHole(rig.floor.transact(command: 0x90, rig.floorRequest)) } }
    }
    Benchmark("GetAssertion on the HID socket, passkey in the vault (biometry-any, reuse window)", configuration: configuration) { benchmark in
        let rig = try await Rigs.shared.rig()
        let iterations = benchmark.scaledIterations
        benchmark.startMeasurement()
        await offPool { for _ in iterations { blackHole(rig.vault.transact(command: 0x90, rig.vaultRequest)) } }
    }
}
