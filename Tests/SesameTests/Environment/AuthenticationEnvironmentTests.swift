import Sesame
import SesameTesting
import Testing

@Suite("AuthenticationEnvironment: the authentication state as it changes")
struct AuthenticationEnvironmentTests {
    @Test("A8, D14: the state at once, then one state per change: enrolment, session lock, sleep, the reader unplugged")
    func changes() async throws {
        let machine = TestMachine()
        var states = AuthenticationEnvironment(machine.authenticators).states().makeAsyncIterator()
        let first = try #require(await states.next())
        #expect(first.biometry.isAvailable && first.biometry.isEnrolled && !first.biometry.isLockedOut)
        #expect(first.biometry.enrolled == ["right-index-finger"])
        #expect(first.isDevicePasscodeSet)
        #expect(first.session?.condition == .unlocked)

        machine.sensor.enrol("left-thumb")
        let enrolled = try #require(await states.next())
        #expect(Set(enrolled.biometry.enrolled) == ["right-index-finger", "left-thumb"])
        #expect(enrolled.biometry.domainState != first.biometry.domainState)
        #expect(enrolled.session == first.session)

        machine.sessionLock.lock()
        #expect(await states.next()?.session?.condition == .locked)
        machine.sessionLock.prepareForSleep()
        #expect(await states.next()?.session?.condition == .goingToSleep)
        machine.sessionLock.unlock()
        #expect(await states.next()?.session?.condition == .unlocked)

        machine.sensor.unplug()
        let unplugged = try #require(await states.next())
        #expect(!unplugged.biometry.isAvailable)
        #expect(unplugged.biometry.unavailableReason?.kind == .noSensor)

        machine.sensor.unenrolAll()
        machine.sensor.plugIn()
        let empty = try #require(await states.next())
        #expect(!empty.biometry.isEnrolled && !empty.biometry.isAvailable)
    }

    @Test("A4: a lockout shows as locked out, read afresh at the next notice")
    func lockout() async throws {
        let machine = TestMachine()
        let environment = AuthenticationEnvironment(machine.authenticators)
        machine.sensor.setLockedOut(true)
        let state = await environment.current()
        #expect(state.biometry.isLockedOut)
        #expect(!state.biometry.isAvailable)
    }
}
