import Sesame
import SesameTesting
import Testing

/// `AccessControl.unsatisfiableReason(on:)`: what `put` and `key create`
/// warn about when nothing on this machine can give an access control.
@Suite("SPEC D1, D2: an access control nothing on this machine can satisfy")
struct AccessControlAvailabilityTests {
    @Test("SPEC D1, D2: with no reader and no login password, the fingerprint and presence flags are named; an application password never is")
    func nothingCanAsk() async throws {
        let machine = TestMachine(devicePasscode: nil, withSensor: false)
        let presence = await AccessControl.userPresence.unsatisfiableReason(on: machine.authenticators)
        #expect(presence?.contains("neither a fingerprint") == true, "\(presence ?? "nil")")
        #expect(await AccessControl.biometryAny.unsatisfiableReason(on: machine.authenticators)?.contains("no fingerprint") == true)
        #expect(await AccessControl.devicePasscode.unsatisfiableReason(on: machine.authenticators)?.contains("no login password") == true)
        #expect(await AccessControl.applicationPassword.unsatisfiableReason(on: machine.authenticators) == nil)
        #expect(await Vault.noAccessControl.unsatisfiableReason(on: machine.authenticators) == nil)
        // `or`: one flag that can be given is enough; `and`: one that cannot is too many.
        let either = try AccessControl([.biometryAny, .applicationPassword], combination: .or)
        #expect(await either.unsatisfiableReason(on: machine.authenticators) == nil)
        let both = try AccessControl([.biometryAny, .applicationPassword], combination: .and)
        #expect(await both.unsatisfiableReason(on: machine.authenticators)?.contains("no fingerprint") == true)
    }

    @Test("SPEC D1, D2: a reader with an enrolled finger, or one locked out for now, satisfies them; a login password alone satisfies presence")
    func somethingCanAsk() async throws {
        let withReader = TestMachine(devicePasscode: nil)
        #expect(await AccessControl.biometryCurrentSet.unsatisfiableReason(on: withReader.authenticators) == nil)
        withReader.sensor.setLockedOut(true)
        #expect(await AccessControl.biometryAny.unsatisfiableReason(on: withReader.authenticators) == nil)
        let withPassword = TestMachine(withSensor: false)
        #expect(await AccessControl.userPresence.unsatisfiableReason(on: withPassword.authenticators) == nil)
        #expect(await AccessControl.biometryAny.unsatisfiableReason(on: withPassword.authenticators) != nil)
    }
}
