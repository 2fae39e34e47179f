import Foundation
@testable import Sesame
import SesameTesting
import Testing

/// Real separate processes writing one vault: `sesame-vault-stress` sits
/// next to the test bundle in the build directory.
@Suite("Vault: several processes, kill -9", .serialized)
struct VaultProcessesTests {
    static let stress: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("sesame-vault-stress")

    static func writer(_ path: String, prefix: String, count: Int) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = stress
        process.arguments = [path, prefix, String(count)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        return (process, output)
    }

    @Test("Two processes writing 1,000 items each at once: all 2,000 are present")
    func concurrentWriters() async throws {
        let fixture = try await TestVault()
        let writers = try ["p", "q"].map { try Self.writer(fixture.path, prefix: $0, count: 1_000) }
        var acknowledged: [String] = []
        for (process, output) in writers {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            acknowledged += String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        #expect(acknowledged.count == 2_000)
        let items = try await fixture.vault.items.list(service: "stress")
        #expect(items.count == 2_000)
        #expect(Set(items.map(\.account)) == Set(acknowledged))
        let sample = try await fixture.vault.items.read(service: "stress", account: "q-999", operationPrompt: "")
        #expect(sample.constantTimeEquals(SecretBytes(utf8: "value of q-999")))
    }

    @Test("A writer killed with SIGKILL mid-loop: every acknowledged item is present and the file opens")
    func killed() async throws {
        let fixture = try await TestVault()
        let (process, output) = try Self.writer(fixture.path, prefix: "k", count: 1_000_000)
        var received = Data()
        while received.split(separator: UInt8(ascii: "\n")).count < 150 {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        received += output.fileHandleForReading.readDataToEndOfFile()
        #expect(process.terminationReason == .uncaughtSignal)
        // Only complete lines were acknowledged; a partial last line was not.
        var lines = String(decoding: received, as: UTF8.self).components(separatedBy: "\n")
        lines.removeLast()
        #expect(lines.count >= 150)

        let reopened = try await Vault.open(at: fixture.path, unlock: .device(), authenticators: fixture.machine.authenticators)
        let present = Set(try await reopened.items.list(service: "stress").map(\.account))
        #expect(Set(lines).isSubset(of: present))
        for account in lines.suffix(3) {
            let value = try await reopened.items.read(service: "stress", account: account, operationPrompt: "")
            #expect(value.constantTimeEquals(SecretBytes(utf8: "value of \(account)")))
        }
        try await reopened.items.add(SecretBytes(utf8: "after"), service: "stress", account: "after-kill")
    }
}
