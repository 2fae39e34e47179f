import Sesame
import SesameTesting

/// A machine for one test: a simulated sensor and passcodes, a scripted user
/// and a manual clock.
struct Fixture {
    let sensor: SimulatedSensor
    let devicePasscode: SimulatedPasscode
    let appPasscode: SimulatedPasscode
    let presenter: RecordingPresenter
    let clock: ManualClock
    let authenticators: Authenticators

    init(
        sensor: SimulatedSensor = SimulatedSensor(),
        devicePasscode: String? = "device-1234",
        appPasscode: String? = "app-0000",
        presenter: RecordingPresenter = RecordingPresenter(),
        withSensor: Bool = true,
        attempts: any AttemptStore = InMemoryAttemptStore(),
        clock: ManualClock = ManualClock()
    ) {
        self.sensor = sensor
        self.devicePasscode = SimulatedPasscode(devicePasscode)
        self.appPasscode = SimulatedPasscode(appPasscode)
        self.presenter = presenter
        self.clock = clock
        authenticators = Authenticators(
            appName: "Sesame Tests",
            sensor: withSensor ? sensor : nil,
            devicePasscode: self.devicePasscode,
            appPasscode: self.appPasscode,
            presenter: presenter,
            clock: clock,
            attempts: attempts
        )
    }

    func context() -> AuthenticationContext {
        AuthenticationContext(authenticators)
    }

    /// Evaluates and returns the error, or nil on success.
    func outcome(_ policy: AuthenticationPolicy, on context: AuthenticationContext? = nil) async -> AuthenticationError? {
        do {
            try await (context ?? self.context()).evaluate(policy, localizedReason: "Testing")
            return nil
        } catch {
            return error
        }
    }

    /// The error `canEvaluate` reports, or nil when the policy can be evaluated.
    func readiness(_ policy: AuthenticationPolicy, on context: AuthenticationContext? = nil) async -> AuthenticationError? {
        do {
            try await (context ?? self.context()).canEvaluate(policy)
            return nil
        } catch {
            return error
        }
    }

    /// Runs five non-matching scans over two prompts so biometrics locks out.
    func lockOut() async -> AuthenticationError? {
        sensor.present(.noMatch, .noMatch, .noMatch)
        _ = await outcome(.biometrics)
        sensor.present(.noMatch, .noMatch)
        return await outcome(.biometrics)
    }
}
