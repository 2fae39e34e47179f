import Foundation
import Glibc
import Testing

/// A `sesame ssh-agent` running in the background of a test, and the real
/// OpenSSH programs pointed at it.
final class AgentProcess: @unchecked Sendable {
    let process = Process()
    let socket: String
    let place: VaultHome

    /// Starts the agent on `socket` and waits until it listens.
    ///
    /// - Parameters:
    ///   - interactive: Without `--no-interaction`: it may ask (through
    ///     `SSH_ASKPASS`, having no terminal).
    ///   - environment: The agent's environment; the place's by default.
    ///   - descriptorLimit: `ulimit -n` for the agent (set by a shell that
    ///     then `exec`s it, so the process id stays the agent's).
    ///   - log: A file for the agent's standard error (its refusals' reasons); none by default.
    init(place: VaultHome, socket: String, arguments: [String] = [], interactive: Bool = false, environment: [String: String]? = nil,
         descriptorLimit: Int? = nil, log: String? = nil) async throws {
        self.place = place
        self.socket = socket
        let agentArguments = ["ssh-agent", "--socket", socket] + (interactive ? [] : ["--no-interaction"]) + arguments
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec " + TerminalSession.quoted([SesameBinary.url.path] + agentArguments)]
        } else {
            process.executableURL = SesameBinary.url
            process.arguments = agentArguments
        }
        process.environment = environment ?? place.environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        if let log {
            try #require(FileManager.default.createFile(atPath: log, contents: nil), "cannot create \(log)")
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        for _ in 0..<1200 where !FileManager.default.fileExists(atPath: socket) {
            guard process.isRunning else { throw EnvironmentError("the agent exited with \(process.terminationStatus)") }
            try await Task.sleep(for: .milliseconds(25))
        }
        try #require(FileManager.default.fileExists(atPath: socket), "the agent never listened on \(socket)")
    }

    deinit { stop() }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The environment of an OpenSSH client using this agent.
    var clientEnvironment: [String: String] {
        var environment = place.environment
        environment["SSH_AUTH_SOCK"] = socket
        return environment
    }

    /// Runs an OpenSSH program (`ssh-add`, `ssh-keygen`, `ssh`) against the agent.
    func client(_ program: String, _ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:]) async throws -> SesameBinary.Result {
        try await SesameBinary.run(arguments, environment: clientEnvironment.merging(extra) { $1 }, stdin: stdin,
                                   executable: URL(fileURLWithPath: "/usr/bin/" + program))
    }

    /// Sends raw bytes on a new connection and returns what comes back
    /// before the agent answers one frame or closes (`nil`: closed with nothing).
    func raw(_ bytes: [UInt8]) -> [UInt8]? {
        Self.raw(bytes, socket: socket)
    }

    /// ``raw(_:)`` to any agent's socket (OpenSSH's, to compare).
    static func raw(_ bytes: [UInt8], socket: String) -> [UInt8]? {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socket.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return nil }
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 4096, 0) }
        return got > 0 ? Array(buffer.prefix(got)) : nil
    }
}
