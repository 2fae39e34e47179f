import Foundation
import Sesame
@testable import SesameApple
import SesameTesting
import Testing

/// `AppleMachine` is where the backends are chosen on Apple platforms (as
/// `LinuxMachine` on Linux), for an app and `sesame` alike: LocalAuthentication
/// for the sensor and the passcode, and the account's one attempt file.
@Suite("AppleMachine: the account's backends on Apple platforms")
struct AppleMachineTests {
    static func environment() throws -> [String: String] {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-apple-machine-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return ["HOME": home, "XDG_STATE_HOME": home + "/state"]
    }

    static func machine(_ device: SimulatedLocalAuthentication, _ environment: [String: String]) -> AppleMachine {
        AppleMachine(appName: "Notes", localizedReason: "Open your notes", presenter: nil, environment: environment, makeContext: device.factory)
    }

    @Test("SPEC A3, A7: the machine's sensor is LocalAuthentication's: a match evaluates, with its biometry type")
    func localAuthentication() async throws {
        let device = SimulatedLocalAuthentication()
        device.script(.match)
        let context = AuthenticationContext(Self.machine(device, try Self.environment()).authenticators)
        try await context.canEvaluate(.biometrics)
        #expect(context.biometryType == .fingerprint)
        try await context.evaluate(.biometrics, localizedReason: "Open")
        #expect(device.evaluations == 1)
    }

    @Test("SPEC A4: two programs' machines on one account count failures in one attempt file: five across both lock biometrics out")
    func oneAttemptCount() async throws {
        let environment = try Self.environment()
        let first = SimulatedLocalAuthentication(), second = SimulatedLocalAuthentication()
        first.script(.noMatch, .noMatch, .noMatch)
        second.script(.noMatch, .noMatch, .noMatch)
        let app = Self.machine(first, environment), cli = Self.machine(second, environment)
        #expect(app.attemptsPath == environment["XDG_STATE_HOME"]! + "/sesame/attempts.json")
        await #expect(throws: AuthenticationError.authenticationFailed) {
            try await AuthenticationContext(app.authenticators).evaluate(.biometrics, localizedReason: "Open")
        }
        #expect(FileManager.default.fileExists(atPath: cli.attemptsPath))
        // The other program's device saw two failures only; the account's record, five.
        await #expect(throws: AuthenticationError.biometryLockout) {
            try await AuthenticationContext(cli.authenticators).evaluate(.biometrics, localizedReason: "Open")
        }
        #expect(second.evaluations == 2 && !second.isLockedOut)
        await #expect(throws: AuthenticationError.biometryLockout) {
            try await AuthenticationContext(Self.machine(SimulatedLocalAuthentication(), environment).authenticators).canEvaluate(.biometrics)
        }
    }

    @Test("SPEC A6: the reuse window lives in the attempt record, and endReuseWindow ends it without creating a record")
    func reuseWindow() async throws {
        let environment = try Self.environment()
        let machine = Self.machine(SimulatedLocalAuthentication(), environment)
        #expect(machine.reuseWindowLocation == "attempt record " + machine.attemptsPath)
        try await machine.endReuseWindow()
        #expect(!FileManager.default.fileExists(atPath: machine.attemptsPath))
        #expect(AppleMachine.vaultPath(nil, environment: environment.merging(["SESAME_VAULT": "/tmp/v.sesame"]) { $1 }) == "/tmp/v.sesame")
    }
}
