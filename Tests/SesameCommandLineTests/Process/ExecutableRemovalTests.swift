#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// A daemon whose binary is removed (`apt remove sesame`) exits instead of
/// serving on from the deleted file; one whose binary is replaced (an
/// upgrade) serves on.
@Suite("daemons end when their binary is removed", .serialized, .timeLimit(.minutes(2)))
struct ExecutableRemovalTests {
    /// `sesame secret-service` run from a copy of the binary, on a private bus.
    static func serve(from copy: String, place: VaultHome) async throws -> (bus: PrivateSessionBus, daemon: PrivateSessionBus.Daemon) {
        try FileManager.default.copyItem(atPath: SesameBinary.url.resolvingSymlinksInPath().path, toPath: copy)
        let bus = try await PrivateSessionBus.start()
        let daemon = try await bus.startDaemon(copy, ["secret-service", "--no-interaction"], environment: place.environment, log: "sesame.log")
        try #require(try await SecretTool.waitForProvider(bus) && daemon.isRunning, "the copy did not serve")
        return (bus, daemon)
    }

    static func exits(_ daemon: PrivateSessionBus.Daemon, within seconds: Int) async throws -> Bool {
        for _ in 0..<(seconds * 10) {
            if !daemon.isRunning { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Runs `body` with a vault served by a copy of the binary at `copy`.
    static func withServingCopy(_ body: (String, PrivateSessionBus, PrivateSessionBus.Daemon, VaultHome) async throws -> Void) async throws {
        let place = try VaultHome()
        defer { place.remove() }
        try await place.createVault()
        let copy = place.file("sesame")
        let (bus, daemon) = try await Self.serve(from: copy, place: place)
        defer { daemon.stop(); bus.stop() }
        try await body(copy, bus, daemon, place)
    }

    @Test("SPEC G: sesame secret-service exits within seconds of its binary's removal, saying why in its log")
    func removedBinaryEndsTheDaemon() async throws {
        try await Self.withServingCopy { copy, bus, daemon, _ in
            try FileManager.default.removeItem(atPath: copy)
            #expect(try await Self.exits(daemon, within: 15), "it serves on from a deleted binary")
            let log = (try? String(contentsOfFile: bus.directory + "/sesame.log", encoding: .utf8)) ?? ""
            #expect(log.contains("was removed") && log.contains("exiting"), "\(log)")
        }
    }

    @Test("SPEC G: a binary replaced at the same path (an upgrade's rename) leaves the daemon serving")
    func replacedBinaryKeepsTheDaemon() async throws {
        try await Self.withServingCopy { copy, bus, daemon, place in
            let next = place.file("sesame.new")
            try FileManager.default.copyItem(atPath: copy, toPath: next)
            #expect(rename(next, copy) == 0)
            try await Task.sleep(for: .seconds(12))
            #expect(daemon.isRunning, "an upgrade stopped the daemon under its clients")
            #expect(try await SecretTool.run(bus, ["lookup", "sesame-probe", "1"]).output.isEmpty, "the daemon stopped answering")
        }
    }
}
#endif
