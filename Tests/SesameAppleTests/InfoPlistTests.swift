import Sesame
@testable import SesameApple
import SesameTesting
import Testing

@Suite("NSFaceIDUsageDescription guard")
struct InfoPlistTests {
    static let missing = InfoPlist { _ in nil }
    static let present = InfoPlist { $0 == InfoPlist.faceIDUsageDescriptionKey ? "Unlock your notes" : nil }

    @Test("A2: Face ID without the key: a typed error, no prompt", arguments: [SimulatedLocalAuthentication.Biometry.faceID, .opticID])
    func missingKey(biometry: SimulatedLocalAuthentication.Biometry) async {
        let device = SimulatedLocalAuthentication(biometry: biometry)
        device.script(.match)
        let sensor = device.sensor(infoPlist: Self.missing)
        await #expect(throws: BiometricSensorError.unavailable(LocalAuthenticationSensor.missingUsageDescription)) {
            _ = try await sensor.claim()
        }
        #expect(device.evaluations == 0)
        let state = await sensor.currentState()
        #expect(state.availability == .unavailable(LocalAuthenticationSensor.missingUsageDescription))
        #expect(state.biometryType == .face)
    }

    @Test("A2: Through AuthenticationContext it is biometryNotAvailable with the reason")
    func throughContext() async {
        let device = SimulatedLocalAuthentication(biometry: .faceID)
        let context = AuthenticationContext(Authenticators(appName: "Notes", sensor: device.sensor(infoPlist: Self.missing)))
        do {
            try await context.evaluate(.biometrics, localizedReason: "Open")
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .biometryNotAvailable)
            #expect(error.reason?.kind == .notConfigured)
            #expect(error.message.contains("NSFaceIDUsageDescription"))
        }
    }

    @Test("A2: Face ID with the key, and Touch ID without it, evaluate normally")
    func allowed() async throws {
        for (biometry, plist) in [(SimulatedLocalAuthentication.Biometry.faceID, Self.present), (.touchID, Self.missing)] {
            let device = SimulatedLocalAuthentication(biometry: biometry)
            device.script(.match)
            let claim = try await device.sensor(infoPlist: plist).claim()
            #expect(try await claim.scan { _ in } == .match)
            await claim.release()
        }
    }

    @Test("A2: An empty or blank description counts as missing")
    func blank() {
        #expect(!InfoPlist { _ in "  " }.hasFaceIDUsageDescription)
        #expect(Self.present.hasFaceIDUsageDescription)
    }
}
