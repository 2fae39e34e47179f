import Sesame
import Testing

/// `Authenticators.account`: the one place the account's attempt record is
/// chosen, for `LinuxMachine` and for a program with no platform backends.
@Suite("SPEC E5: every program of the account counts attempts in one record")
struct AccountAuthenticatorsTests {
    @Test("SPEC E5: the account's authenticators count in the attempt file at its default path, with no backend of their own")
    func accountDefaults() throws {
        let environment = ["HOME": "/home/owner", "XDG_STATE_HOME": "/home/owner/.state"]
        let authenticators = Authenticators.account(appName: "Money", environment: environment)
        let store = try #require(authenticators.attempts as? FileAttemptStore)
        #expect(store.path == FileAttemptStore.defaultPath(environment: environment))
        #expect(authenticators.appName == "Money")
        #expect(authenticators.sensor == nil && authenticators.devicePasscode == nil && authenticators.presenter == nil)
    }
}
