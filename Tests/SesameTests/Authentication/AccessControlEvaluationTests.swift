import Sesame
import SesameTesting
import Testing

@Suite("SPEC A12: evaluateAccessControl")
struct AccessControlEvaluationTests {
    @Test("SPEC A12: each of the six operations is authorised ahead of time", arguments: AccessControlOperation.allCases)
    func operations(operation: AccessControlOperation) async throws {
        let fixture = TestMachine()
        let context = fixture.context()
        fixture.sensor.present(.match)
        try await context.evaluateAccessControl(.biometryAny, operation: operation, localizedReason: "Unlock the key")
        #expect(context.isAuthorized(.biometryAny, for: operation))
        let others = AccessControlOperation.allCases.filter { $0 != operation }
        #expect(others.allSatisfy { !context.isAuthorized(.biometryAny, for: $0) })
        #expect(!context.isAuthorized(.devicePasscode, for: operation))
    }

    @Test("SPEC P1: one evaluation for several operations asks once and authorises each of them, and no other")
    func severalOperations() async throws {
        let fixture = TestMachine()
        let context = fixture.context()
        fixture.sensor.present(.match)
        try await context.evaluateAccessControl(.biometryAny, operations: [.useKeySign, .useItem], localizedReason: "Sign in to example.com")
        #expect(fixture.presenter.prompts.count == 1)
        #expect(context.isAuthorized(.biometryAny, for: .useKeySign) && context.isAuthorized(.biometryAny, for: .useItem))
        #expect(!context.isAuthorized(.biometryAny, for: .createItem) && !context.isAuthorized(.biometryAny, for: .useKeyDecrypt))
        fixture.sensor.present(.noMatch, .noMatch, .noMatch)
        let second = fixture.context()
        await #expect(throws: AuthenticationError.authenticationFailed) {
            try await second.evaluateAccessControl(.biometryAny, operations: [.useKeySign, .useItem], localizedReason: "Sign in")
        }
        #expect(!second.isAuthorized(.biometryAny, for: .useKeySign) && !second.isAuthorized(.biometryAny, for: .useItem))
    }

    @Test("SPEC A12: biometryCurrentSet is authorised by a match")
    func currentSet() async throws {
        let fixture = TestMachine()
        let context = fixture.context()
        fixture.sensor.present(.match)
        try await context.evaluateAccessControl(.biometryCurrentSet, operation: .useItem, localizedReason: "Read")
        #expect(context.isAuthorized(.biometryCurrentSet, for: .useItem))
        #expect(fixture.presenter.prompts.first?.fallbackTitle == "Enter Password")
    }

    @Test("SPEC A12: a failed evaluation authorises nothing")
    func failure() async {
        let fixture = TestMachine()
        let context = fixture.context()
        fixture.sensor.present(.noMatch, .noMatch, .noMatch)
        await #expect(throws: AuthenticationError.authenticationFailed) {
            try await context.evaluateAccessControl(.biometryAny, operation: .useItem, localizedReason: "Read")
        }
        #expect(!context.isAuthorized(.biometryAny, for: .useItem))
    }

    @Test("SPEC A12: userPresence falls back to the device passcode")
    func userPresence() async throws {
        let fixture = TestMachine()
        let context = fixture.context()
        fixture.sensor.setLockedOut(true)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        try await context.evaluateAccessControl(.userPresence, operation: .useItem, localizedReason: "Read")
        #expect(context.isAuthorized(.userPresence, for: .useItem))
    }

    @Test("SPEC A12: devicePasscode asks only for the passcode")
    func devicePasscode() async throws {
        let fixture = TestMachine()
        let context = fixture.context()
        fixture.presenter.answerSecrets(.enter("device-1234"))
        try await context.evaluateAccessControl(.devicePasscode, operation: .createItem, localizedReason: "Store")
        #expect(fixture.sensor.claimsMade == 0)
        #expect(context.isAuthorized(.devicePasscode, for: .createItem))
    }

    @Test("SPEC A12: applicationPassword uses the credential on the context without prompting, or asks for it")
    func applicationPassword() async throws {
        let fixture = TestMachine()
        let preset = fixture.context()
        preset.setCredential(SecretBytes(utf8: "p4ss"), type: .applicationPassword)
        try await preset.evaluateAccessControl(.applicationPassword, operation: .useItem, localizedReason: "Read")
        #expect(fixture.presenter.events.isEmpty)

        let asking = fixture.context()
        fixture.presenter.answerSecrets(.enter("typed"))
        try await asking.evaluateAccessControl(.applicationPassword, operation: .useItem, localizedReason: "Read")
        #expect(asking.isCredentialSet(.applicationPassword))
        #expect(fixture.presenter.secretRequests.map(\.kind) == [.applicationPassword])
    }

    @Test("SPEC A12: `and` needs every factor; `or` needs one")
    func combinations() async throws {
        let fixture = TestMachine()
        let both = try AccessControl([.biometryAny, .devicePasscode], combination: .and)
        let context = fixture.context()
        fixture.sensor.present(.match)
        fixture.presenter.answerSecrets(.enter("device-1234"))
        try await context.evaluateAccessControl(both, operation: .useItem, localizedReason: "Read")
        #expect(fixture.sensor.scansStarted == 1)
        #expect(fixture.devicePasscode.verifications == 1)

        let either = try AccessControl([.biometryAny, .devicePasscode], combination: .or)
        let second = fixture.context()
        fixture.sensor.present(.match)
        try await second.evaluateAccessControl(either, operation: .useItem, localizedReason: "Read")
        #expect(fixture.devicePasscode.verifications == 1, "a match alone satisfies `or`")

        let biometryOnly = fixture.context()
        fixture.sensor.present(.match)
        fixture.presenter.answerSecrets(.cancel)
        await #expect(throws: AuthenticationError.userCancel) {
            try await biometryOnly.evaluateAccessControl(both, operation: .useItem, localizedReason: "Read")
        }
    }

    @Test("SPEC A12: privateKeyUsage alone needs no user and never prompts")
    func privateKeyUsage() async throws {
        let fixture = TestMachine()
        let context = fixture.context()
        let keyOnly = try AccessControl([.privateKeyUsage])
        try await context.evaluateAccessControl(keyOnly, operation: .useKeySign, localizedReason: "Sign")
        #expect(fixture.presenter.events.isEmpty)
        #expect(context.isAuthorized(keyOnly, for: .useKeySign))
    }

    @Test("SPEC D2: biometryAny and biometryCurrentSet cannot be combined")
    func conflicting() {
        #expect(throws: AccessControl.ValidationError.conflictingBiometryFlags) {
            try AccessControl([.biometryAny, .biometryCurrentSet])
        }
    }
}
