import Benchmark
import Foundation
import Glibc
import Sesame
import SesameSSH
import SesameLinux
import SesameTesting

// Signatures through `sesame ssh-agent`'s server next to OpenSSH's own
// `ssh-agent`, in the same run, through the same client code (one
// connection, one SSH_AGENTC_SIGN_REQUEST after another, as `ssh` or git
// sends them), for Ed25519, RSA 3072 and ECDSA P-384 (issue 26). Both agents
// hold the SAME key material: each key is made once with `ssh-keygen`, added
// to OpenSSH's agent with `ssh-add` and imported from the same file into the
// vault, so the rows differ only in the agent.
//
// Sesame's keys are `biometry-any`: the first signature with each takes a
// (simulated) scan, the rest fall inside the 300-second reuse window — the
// everyday case of several `git push`es in a row. So each measured signature
// runs the access-control check (the window's lookup), reads and checks the
// key row and unwraps the key; only the scan itself is not measured.
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

    /// Every identity's key blob, by its key type name (`ssh-ed25519`, `ssh-rsa`, …).
    func keyBlobs() -> [String: [UInt8]] {
        let answer = roundTrip([11])
        precondition(answer.first == 12 && answer.count >= 5, "not an identities answer")
        var offset = 5
        func string() -> [UInt8] {
            let length = answer[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            defer { offset += 4 + length }
            return Array(answer[(offset + 4)..<(offset + 4 + length)])
        }
        var blobs: [String: [UInt8]] = [:]
        for _ in 0..<answer[1..<5].reduce(0, { $0 << 8 | Int($1) }) {
            let blob = string()
            _ = string()  // the comment
            let typeLength = blob[0..<4].reduce(0) { $0 << 8 | Int($1) }
            blobs[String(decoding: blob[4..<(4 + typeLength)], as: UTF8.self)] = blob
        }
        return blobs
    }

    /// One signature; `flags` as the request's (4: SSH_AGENT_RSA_SHA2_512).
    func sign(_ blob: [UInt8], flags: Int) -> [UInt8] {
        let answer = roundTrip([13] + Self.string(blob) + Self.string(message) + Self.u32(flags))
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

/// A key type both agents serve, made once with `ssh-keygen`.
struct KeyType: Sendable {
    /// The row's name.
    let name: String
    /// `ssh-keygen`'s `-t`/`-b` arguments.
    let keygen: [String]
    /// The SSH key type name heading its public key blob.
    let sshName: String
    /// The sign request's flags: what `ssh` asks of an RSA key
    /// (SSH_AGENT_RSA_SHA2_512, OpenSSH's first choice); 0 otherwise.
    let flags: Int
    /// Each row's time budget: a sample is 1,000 signatures, some seconds
    /// for RSA, and p25–p75 needs several samples.
    let maxDuration: Duration

    static let all = [
        KeyType(name: "Ed25519", keygen: ["-t", "ed25519"], sshName: "ssh-ed25519", flags: 0, maxDuration: .seconds(5)),
        KeyType(name: "RSA 3072 (rsa-sha2-512)", keygen: ["-t", "rsa", "-b", "3072"], sshName: "ssh-rsa", flags: 4, maxDuration: .seconds(40)),
        KeyType(name: "ECDSA P-384", keygen: ["-t", "ecdsa", "-b", "384"], sshName: "ecdsa-sha2-nistp384", flags: 0, maxDuration: .seconds(15)),
    ]
}

/// One connection to each agent and each agent's key blobs.
struct Clients: Sendable {
    let sesame: AgentClient
    let openSSH: AgentClient
    let sesameBlobs: [String: [UInt8]]
    let openSSHBlobs: [String: [UInt8]]
}

/// Both agents, started on first use, holding the same keys.
actor Agents {
    static let shared = Agents()
    private var clients: Clients?

    func clients() async throws -> Clients {
        if let clients { return clients }
        let directory = NSTemporaryDirectory() + "sesame-bench-agent-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])

        // Stopped, and the directory removed, however this process ends.
        let openSSHSocket = try OpenSSHAgent(directory: directory).socket

        let sensor = SimulatedSensor()
        let clock = SystemClock()
        let authenticators = Authenticators(appName: "benchmarks", sensor: sensor, clock: clock, reuseWindow: InMemoryReuseWindowStore(clock: clock))
        let vault = try await Vault.create(at: directory + "/vault/vault.sqlite", slots: [.device()], authenticators: authenticators).vault
        for (index, type) in KeyType.all.enumerated() {
            // One file per type, in both agents: ssh-add for OpenSSH's, the vault's import for Sesame's.
            let keyFile = directory + "/id_\(index)"
            for (program, arguments) in [("ssh-keygen", ["-q"] + type.keygen + ["-N", "", "-f", keyFile]), ("ssh-add", ["-q", keyFile])] {
                let tool = Process()
                tool.executableURL = URL(fileURLWithPath: "/usr/bin/" + program)
                tool.arguments = arguments
                tool.environment = ["SSH_AUTH_SOCK": openSSHSocket, "PATH": "/usr/bin:/bin"]
                try tool.run()
                tool.waitUntilExit()
                precondition(tool.terminationStatus == 0, "\(program) failed")
            }
            let file = try Data(contentsOf: URL(fileURLWithPath: keyFile))
            _ = try await vault.keys.import(SecretBytes(Array(file)), service: "ssh", name: "bench-\(index)", accessControl: .biometryAny)
        }

        let agent = SSHAgent(sources: [VaultKeySource(vault: vault)]) {
            let context = AuthenticationContext(authenticators)
            context.reuseDuration = 300
            return context
        }
        let server = try SSHAgentServer(agent: agent, path: directory + "/sesame.sock")
        try await server.start()
        let sesame = AgentClient(socket: server.path)
        let openSSH = AgentClient(socket: openSSHSocket)
        let sesameBlobs = await offPool { sesame.keyBlobs() }
        let openSSHBlobs = await offPool { openSSH.keyBlobs() }
        for type in KeyType.all {
            guard let blob = sesameBlobs[type.sshName], blob == openSSHBlobs[type.sshName] else {
                preconditionFailure("the agents do not hold the same \(type.name) key")
            }
            sensor.present(.match)
            _ = await offPool { sesame.sign(blob, flags: type.flags) }  // the one scan; the rest reuse it
        }
        let made = Clients(sesame: sesame, openSSH: openSSH, sesameBlobs: sesameBlobs, openSSHBlobs: openSSHBlobs)
        clients = made
        return made
    }
}

let benchmarks: @Sendable () -> Void = {
    // 1,000 signatures per sample, so the thread each sample's loop runs on
    // costs nothing measurable; figures are per signature.
    for type in KeyType.all {
        let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput], scalingFactor: .kilo,
                                                    maxDuration: type.maxDuration, maxIterations: 200)
        Benchmark("\(type.name) signature through OpenSSH's ssh-agent (file key)", configuration: configuration) { benchmark in
            let clients = try await Agents.shared.clients()
            let (client, blob) = (clients.openSSH, clients.openSSHBlobs[type.sshName]!)
            let iterations = benchmark.scaledIterations
            benchmark.startMeasurement()
            await offPool { for _ in iterations { blackHole(client.sign(blob, flags: type.flags)) } }
        }
        Benchmark("\(type.name) signature through sesame ssh-agent (vault key, reuse window)", configuration: configuration) { benchmark in
            let clients = try await Agents.shared.clients()
            let (client, blob) = (clients.sesame, clients.sesameBlobs[type.sshName]!)
            let iterations = benchmark.scaledIterations
            benchmark.startMeasurement()
            await offPool { for _ in iterations { blackHole(client.sign(blob, flags: type.flags)) } }
        }
    }
}
