import Benchmark
import Foundation
import Glibc
import Sesame
import SesameSSH
import SesameLinux
import SesameTesting

// Signatures through `sesame ssh-agent`'s server next to OpenSSH's own
// `ssh-agent` holding a file key of the same type, in the same run, through
// the same client code (one connection, one SSH_AGENTC_SIGN_REQUEST after
// another, as `ssh` or git sends them).
//
// Sesame's key is `biometry-any`: the first signature takes a (simulated)
// scan, the rest fall inside the 300-second reuse window — the everyday case
// of several `git push`es in a row. So each measured signature runs the
// access-control check (the window's lookup), reads and checks the key row
// and unwraps the key; only the scan itself is not measured.
//
// Run: cd Benchmarks && swift package --disable-sandbox benchmark --target AgentBenchmark
// Needs /usr/bin/ssh-agent, ssh-keygen and ssh-add (Debian's openssh-client).

let message = Array(repeating: UInt8(ascii: "s"), count: 64)

/// A minimal ssh-agent client: frames as draft-miller-ssh-agent says.
final class AgentClient: @unchecked Sendable {
    private let descriptor: Int32

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
    }

    static func string(_ bytes: [UInt8]) -> [UInt8] { u32(bytes.count) + bytes }
    static func u32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    func roundTrip(_ body: [UInt8]) -> [UInt8] {
        let frame = Self.u32(body.count) + body
        _ = frame.withUnsafeBytes { send(descriptor, $0.baseAddress, frame.count, 0) }
        let header = read(4)
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        return read(length)
    }

    private func read(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + offset, count - offset, 0) }
            precondition(got > 0, "the agent closed the connection")
            offset += got
        }
        return bytes
    }

    /// The first identity's key blob.
    func firstKeyBlob() -> [UInt8] {
        let answer = roundTrip([11])
        precondition(answer.first == 12 && answer.count > 9, "no identities")
        let length = answer[5..<9].reduce(0) { $0 << 8 | Int($1) }
        return Array(answer[9..<(9 + length)])
    }

    func sign(_ blob: [UInt8]) -> [UInt8] {
        let answer = roundTrip([13] + Self.string(blob) + Self.string(message) + Self.u32(0))
        precondition(answer.first == 14, "the agent refused to sign")
        return answer
    }
}

/// Runs blocking socket I/O on a thread of its own: Swift's cooperative pool
/// has one thread per core, and the agent's own answers need one.
func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Both agents, started on first use.
actor Agents {
    static let shared = Agents()
    private var clients: (sesame: (AgentClient, [UInt8]), openSSH: (AgentClient, [UInt8]))?

    func clients() async throws -> (sesame: (AgentClient, [UInt8]), openSSH: (AgentClient, [UInt8])) {
        if let clients { return clients }
        let directory = NSTemporaryDirectory() + "sesame-bench-agent-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])

        let sensor = SimulatedSensor()
        let clock = SystemClock()
        let authenticators = Authenticators(appName: "benchmarks", sensor: sensor, clock: clock, reuseWindow: InMemoryReuseWindowStore(clock: clock))
        let vault = try await Vault.create(at: directory + "/vault/vault.sqlite", slots: [.device()], authenticators: authenticators).vault
        _ = try await vault.createKey(service: "ssh", name: "bench", algorithm: .ed25519, accessControl: .biometryAny)
        let agent = SSHAgent(vault: vault) {
            let context = AuthenticationContext(authenticators)
            context.reuseDuration = 300
            return context
        }
        let server = try SSHAgentServer(agent: agent, path: directory + "/sesame.sock")
        try await server.start()
        let sesame = AgentClient(socket: server.path)
        let sesameBlob = await offPool { sesame.firstKeyBlob() }
        sensor.present(.match)
        _ = await offPool { sesame.sign(sesameBlob) }  // the one scan; the rest reuse it

        let openSSHSocket = directory + "/openssh.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-agent")
        process.arguments = ["-D", "-a", openSSHSocket]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: openSSHSocket) { try await Task.sleep(for: .milliseconds(10)) }
        let keyFile = directory + "/id_ed25519"
        for (program, arguments) in [("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", keyFile]), ("ssh-add", ["-q", keyFile])] {
            let tool = Process()
            tool.executableURL = URL(fileURLWithPath: "/usr/bin/" + program)
            tool.arguments = arguments
            tool.environment = ["SSH_AUTH_SOCK": openSSHSocket, "PATH": "/usr/bin:/bin"]
            try tool.run()
            tool.waitUntilExit()
        }
        let openSSH = AgentClient(socket: openSSHSocket)
        let made = (sesame: (sesame, sesameBlob), openSSH: (openSSH, await offPool { openSSH.firstKeyBlob() }))
        clients = made
        return made
    }
}

let benchmarks: @Sendable () -> Void = {
    // 1,000 signatures per sample, so the thread each sample's loop runs on
    // costs nothing measurable; figures are per signature.
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 200)

    Benchmark("Ed25519 signature through OpenSSH's ssh-agent (file key)") { benchmark in
        let (client, blob) = try await Agents.shared.clients().openSSH
        let iterations = benchmark.scaledIterations
        benchmark.startMeasurement()
        await offPool { for _ in iterations { blackHole(client.sign(blob)) } }
    }
    Benchmark("Ed25519 signature through sesame ssh-agent (vault key, reuse window)") { benchmark in
        let (client, blob) = try await Agents.shared.clients().sesame
        let iterations = benchmark.scaledIterations
        benchmark.startMeasurement()
        await offPool { for _ in iterations { blackHole(client.sign(blob)) } }
    }
}
