#if os(Linux)
import Foundation
import Glibc
import Testing

/// `sesame passkey serve --hid-socket` and its socket file: removed when
/// the server is stopped by Ctrl-C or SIGTERM, and a stale one (nobody
/// listening, left by a server that was killed) replaced at the next start.
@Suite("sesame passkey serve's socket file", .serialized, .timeLimit(.minutes(2)))
struct PasskeySocketTests {
    /// Starts the server and waits until its socket answers.
    private static func start(_ place: VaultHome, socket: String) async throws -> Process {
        let process = Process()
        process.executableURL = SesameBinary.url
        process.arguments = ["passkey", "serve", "--hid-socket", socket, "--verification", "password"]
        process.environment = place.environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<1200 where !answers(socket) {
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        try #require(answers(socket), "passkey serve never listened on \(socket)")
        return process
    }

    /// Whether something listens on `path`.
    private static func answers(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    /// Waits for `process` to end, at most 10 s.
    private static func waitForExit(_ process: Process) async throws -> Bool {
        for _ in 0..<1200 where process.isRunning { try await Task.sleep(for: .milliseconds(25)) }
        return !process.isRunning
    }

    @Test("SPEC P: Ctrl-C (SIGINT) or SIGTERM stops the server and removes its socket; no stale passkey.sock stays", arguments: [SIGINT, SIGTERM])
    func signalRemovesSocket(signal: Int32) async throws {
        let place = try VaultHome()
        defer { place.remove() }
        try await place.createVault()
        let socket = place.file("run/passkey.sock")
        let process = try await Self.start(place, socket: socket)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        kill(process.processIdentifier, signal)
        #expect(try await Self.waitForExit(process), "the server did not stop")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file stayed after the signal")
    }

    @Test("SPEC P: a stale socket (its server killed, nobody listening) is replaced at the next start")
    func staleSocketReplaced() async throws {
        let place = try VaultHome()
        defer { place.remove() }
        try await place.createVault()
        let socket = place.file("run/passkey.sock")
        let killed = try await Self.start(place, socket: socket)
        // SIGKILL leaves no chance to clean up: the file stays, unanswered.
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: socket) && !Self.answers(socket))
        let next = try await Self.start(place, socket: socket)
        defer { kill(next.processIdentifier, SIGKILL); next.waitUntilExit() }
        #expect(Self.answers(socket))
    }
}
#endif
