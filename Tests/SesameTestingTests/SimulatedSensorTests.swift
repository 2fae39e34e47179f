import Sesame
import SesameTesting
import Testing

@Suite("SimulatedSensor: the biometrics menu")
struct SimulatedSensorTests {
    @Test("A scan waits for a presentation, as a real sensor waits for a finger")
    func waitsForFinger() async throws {
        let sensor = SimulatedSensor()
        let claim = try await sensor.claim()
        let scan = Task { try await claim.scan { _ in } }
        await sensor.waitUntilScanning()
        sensor.present(.match)
        #expect(try await scan.value == .match)
        await claim.release()
        #expect(sensor.activeClaims == 0)
    }

    @Test("Hints are delivered in order and do not end the scan")
    func hints() async throws {
        let sensor = SimulatedSensor()
        sensor.present(.hint(.fingerNotCentered), .hint(.swipeTooShort), .noMatch)
        let claim = try await sensor.claim()
        let seen = HintLog()
        #expect(try await claim.scan { await seen.append($0) } == .noMatch)
        #expect(await seen.hints == [.fingerNotCentered, .swipeTooShort])
        await claim.release()
    }

    @Test("Unplugging mid-scan fails it as disconnected; the state says unplugged")
    func unplug() async throws {
        let sensor = SimulatedSensor()
        let claim = try await sensor.claim()
        let scan = Task { () async -> Result<ScanResult, BiometricSensorError> in
            do throws(BiometricSensorError) { return .success(try await claim.scan { _ in }) } catch { return .failure(error) }
        }
        await sensor.waitUntilScanning()
        sensor.unplug()
        let result = await scan.value
        guard case .failure(.unavailable(let reason)) = result else {
            Issue.record("expected disconnected, got \(result)")
            return
        }
        #expect(reason.kind == .disconnected)
        await claim.release()
        guard case .unavailable = await sensor.currentState().availability else {
            Issue.record("an unplugged sensor must be unavailable")
            return
        }
    }

    @Test("Cancelling a scan stops it; releasing a claim twice counts once")
    func cancel() async throws {
        let sensor = SimulatedSensor()
        let claim = try await sensor.claim()
        let scan = Task { () async -> Result<ScanResult, BiometricSensorError> in
            do throws(BiometricSensorError) { return .success(try await claim.scan { _ in }) } catch { return .failure(error) }
        }
        await sensor.waitUntilScanning()
        scan.cancel()
        guard case .failure(.cancelled) = await scan.value else {
            Issue.record("expected cancelled")
            return
        }
        await claim.release()
        await claim.release()
        #expect(sensor.activeClaims == 0)
        #expect(sensor.scansCancelled == 1)
    }

    @Test("Busy, lockout and no enrolment refuse a claim")
    func refusals() async {
        let sensor = SimulatedSensor()
        sensor.setBusy(true)
        await #expect(throws: BiometricSensorError.self) { _ = try await sensor.claim() }
        sensor.setBusy(false)
        sensor.setLockedOut(true)
        await #expect(throws: BiometricSensorError.lockedOut) { _ = try await sensor.claim() }
        sensor.setLockedOut(false)
        sensor.unenrolAll()
        await #expect(throws: BiometricSensorError.notEnrolled) { _ = try await sensor.claim() }
        #expect(sensor.activeClaims == 0)
    }

    @Test("Two sensors with the same enrolment but different identities have different domain states")
    func identity() async {
        let first = await SimulatedSensor(identity: "a").currentState().domainState
        let second = await SimulatedSensor(identity: "b").currentState().domainState
        let again = await SimulatedSensor(identity: "a").currentState().domainState
        #expect(first != second)
        #expect(first == again)
    }

    @Test("The simulated passcode compares what the conversation collects")
    func passcode() async {
        let passcode = SimulatedPasscode("2580")
        #expect(await passcode.verify(SecretBytes(utf8: "2580")) == .accepted)
        #expect(await passcode.verify(SecretBytes(utf8: "0852")) == .rejected)
        passcode.set(nil)
        guard case .notSet = await passcode.currentState() else {
            Issue.record("a removed passcode is not set")
            return
        }
    }
}

private actor HintLog {
    var hints: [ScanHint] = []
    func append(_ hint: ScanHint) { hints.append(hint) }
}
