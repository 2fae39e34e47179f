#if os(Linux)
import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

private typealias Support = FprintdTestSupport

/// The stored prints in the domain state: a finger deleted and re-enrolled
/// under the same name is seen where the prints can be read.
@Suite(
    "fprintd: stored prints in the domain state",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: FprintdHarness.missingComponents.isEmpty, fprintdMissingNote),
    .fprintdHarness(enrolling: [("right-index-finger", "owner")])
)
struct FprintdPrintStoreTests {
    private final class Hints: Sendable {
        let count = Locked(0)
    }

    @Test("SPEC A8: a finger re-enrolled under the same name changes the domain state where the prints are readable; a verify does not")
    func reEnrolment() async throws {
        let harness = try Support.harness
        let withPrints = FprintdSensor(.init(systemBusAddress: harness.systemBusAddress, printStoreDirectory: harness.stateDirectory))
        let namesOnly = FprintdSensor(.init(systemBusAddress: harness.systemBusAddress, printStoreDirectory: nil))
        let before = try #require(await withPrints.currentState().domainState)
        let beforeNames = try #require(await namesOnly.currentState().domainState)
        #expect(before != beforeNames, "the prints were read")

        // A successful verify leaves the stored prints, and so the state, alone.
        let claim = try await withPrints.claim()
        let hints = Hints()
        let scan = Task { () -> ScanResult? in
            try? await claim.scan { _ in hints.count.withLock { $0 += 1 } }
        }
        try await harness.retry(0)
        try await Support.waitUntil("the verify is running") { hints.count.withLock { $0 } > 0 }
        try await harness.scan("owner")
        #expect(await Support.value(of: scan) == .match)
        await claim.release()
        #expect(await withPrints.currentState().domainState == before)

        try await harness.deleteEnrolled(finger: "right-index-finger")
        try await harness.enrol(finger: "right-index-finger", scanID: "intruder")
        let after = await withPrints.currentState()
        #expect(after.enrolled == ["right-index-finger"])
        #expect(after.domainState != before, "the intruder's print under the owner's finger name is caught")
        #expect(await namesOnly.currentState().domainState == beforeNames, "names alone cannot see it: the documented limit")
    }

    @Test("SPEC A8: an unreadable or missing print store falls back to the finger names")
    func missingStore() async throws {
        let harness = try Support.harness
        let missing = FprintdSensor(.init(systemBusAddress: harness.systemBusAddress, printStoreDirectory: "/nonexistent/fprint"))
        let namesOnly = FprintdSensor(.init(systemBusAddress: harness.systemBusAddress, printStoreDirectory: nil))
        #expect(await missing.currentState().domainState == namesOnly.currentState().domainState)
    }
}
#endif
