import Sesame
import SesameTesting
import Testing

/// The reuse window kept in a ``ReuseWindowStore`` (the CLI's kernel
/// keyring) instead of the attempt record.
@Suite("SPEC A6: the reuse window in a ReuseWindowStore")
struct ReuseWindowStoreTests {
    /// A fixture whose contexts keep the window in `store`.
    struct Machine {
        let fixture = TestMachine()
        let store: InMemoryReuseWindowStore
        let attempts = InMemoryAttemptStore()

        init() {
            store = InMemoryReuseWindowStore(clock: fixture.clock)
        }

        /// A context as a new process would make it: a fresh attempt record,
        /// the same window store.
        func context(reuse: Double = 0, attempts: (any AttemptStore)? = nil) -> AuthenticationContext {
            var authenticators = fixture.authenticators
            authenticators.attempts = attempts ?? self.attempts
            authenticators.reuseWindow = store
            let context = AuthenticationContext(authenticators)
            context.reuseDuration = reuse
            return context
        }

        /// Scans once, matching, so the store holds a success.
        func scan() async -> AuthenticationError? {
            fixture.sensor.present(.match)
            return await fixture.outcome(.biometrics, on: context())
        }
    }

    @Test("SPEC A6: a success is kept in the store, not in the attempt record, and reused within the window")
    func honoured() async throws {
        let machine = Machine()
        #expect(await machine.scan() == nil)
        #expect(machine.store.recordCount == 1)
        let record = try await machine.attempts.read()
        #expect(record.lastBiometricSuccess == nil)
        #expect(record.lastBiometricSuccessDomainState == nil)
        machine.fixture.clock.advance(by: 59)
        // A fresh attempt record, as in another process: only the store can carry the window.
        #expect(await machine.fixture.outcome(.biometrics, on: machine.context(reuse: 60, attempts: InMemoryAttemptStore())) == nil)
        #expect(await machine.fixture.outcome(.deviceOwner, on: machine.context(reuse: 60)) == nil)
        #expect(machine.fixture.sensor.scansStarted == 1)
    }

    @Test("SPEC A6: the window is clamped to 300 s even when the store still holds the success",
          arguments: [(299.0, 1), (301.0, 2)])
    func clamped(after seconds: Double, scans: Int) async {
        let machine = Machine()
        #expect(await machine.scan() == nil)
        machine.fixture.clock.advance(by: seconds)
        machine.fixture.sensor.present(.match)
        let context = machine.context(reuse: 86_400)
        #expect(context.reuseDuration == 300)
        #expect(await machine.fixture.outcome(.biometrics, on: context) == nil)
        #expect(machine.fixture.sensor.scansStarted == scans)
    }

    @Test("SPEC A6: the window ends when it runs out, the store's clock goes back, the enrolment changes, or the store is cleared",
          arguments: ["expired", "clockBack", "enrolment", "cleared"])
    func ends(condition: String) async throws {
        let machine = Machine()
        #expect(await machine.scan() == nil)
        switch condition {
        case "expired": machine.fixture.clock.advance(by: 61)
        case "clockBack": machine.fixture.clock.advance(by: -10)
        case "enrolment": machine.fixture.sensor.enrol("left-thumb")
        default: try await machine.store.clear()
        }
        machine.fixture.sensor.present(.match)
        #expect(await machine.fixture.outcome(.biometrics, on: machine.context(reuse: 60)) == nil)
        #expect(machine.fixture.sensor.scansStarted == 2)
    }

    @Test("SPEC A6: with reuse 0 a kept success is not used")
    func zero() async {
        let machine = Machine()
        #expect(await machine.scan() == nil)
        machine.fixture.sensor.present(.match)
        #expect(await machine.fixture.outcome(.biometrics, on: machine.context(reuse: 0)) == nil)
        #expect(machine.fixture.sensor.scansStarted == 2)
    }

    @Test("SPEC A6: a store that cannot be read means no reuse (fail closed); one that cannot record does not fail the scan")
    func failsClosed() async {
        let machine = Machine()
        #expect(await machine.scan() == nil)
        machine.store.setFailing(true)
        let context = machine.context(reuse: 60)
        context.interactionNotAllowed = true
        #expect(await machine.fixture.outcome(.biometrics, on: context)?.code == .notInteractive)
        machine.fixture.sensor.present(.match)
        #expect(await machine.fixture.outcome(.biometrics, on: machine.context(reuse: 60)) == nil)
        #expect(machine.fixture.sensor.scansStarted == 2)
    }

    @Test("SPEC A6: without a store the attempt record still carries the window")
    func withoutStore() async throws {
        let fixture = TestMachine()
        fixture.sensor.present(.match)
        #expect(await fixture.outcome(.biometrics) == nil)
        #expect(try await fixture.authenticators.attempts.read().lastBiometricSuccess != nil)
    }
}
