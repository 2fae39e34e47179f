import Sesame

/// A machine for one test: a simulated sensor and passcodes, a scripted user
/// and a manual clock, wired into one `Authenticators`.
///
/// Never touches the real machine: no sensor, PAM, file or clock of the host.
public struct TestMachine: Sendable {
    public let sensor: SimulatedSensor
    public let devicePasscode: SimulatedPasscode
    public let appPasscode: SimulatedPasscode
    public let presenter: RecordingPresenter
    public let clock: ManualClock
    /// The owner's session: unlocked until the test locks it (SPEC D14).
    public let sessionLock: SimulatedSessionLock
    public let authenticators: Authenticators

    /// - Parameters:
    ///   - sensor: The simulated sensor (one enrolled finger by default).
    ///   - devicePasscode: The device passcode; `nil` for none set.
    ///   - appPasscode: The app passcode; `nil` for none set.
    ///   - presenter: Records every prompt and answers as scripted.
    ///   - withSensor: `false` for a machine without a sensor.
    ///   - attempts: Where attempt counts are kept (in memory by default).
    ///   - clock: The clock delays and reuse windows are measured on.
    ///   - sessionLock: The owner's session; unlocked by default.
    public init(
        sensor: SimulatedSensor = SimulatedSensor(),
        devicePasscode: String? = "device-1234",
        appPasscode: String? = "app-0000",
        presenter: RecordingPresenter = RecordingPresenter(),
        withSensor: Bool = true,
        attempts: any AttemptStore = InMemoryAttemptStore(),
        clock: ManualClock = ManualClock(),
        sessionLock: SimulatedSessionLock = SimulatedSessionLock()
    ) {
        self.sensor = sensor
        self.devicePasscode = SimulatedPasscode(devicePasscode)
        self.appPasscode = SimulatedPasscode(appPasscode)
        self.presenter = presenter
        self.clock = clock
        self.sessionLock = sessionLock
        authenticators = Authenticators(
            appName: "Sesame Tests",
            sensor: withSensor ? sensor : nil,
            devicePasscode: self.devicePasscode,
            appPasscode: self.appPasscode,
            presenter: presenter,
            clock: clock,
            attempts: attempts,
            sessionLock: sessionLock
        )
    }

    /// A new context over this machine.
    public func context() -> AuthenticationContext {
        AuthenticationContext(authenticators)
    }

    /// Evaluates and returns the error, or nil on success.
    public func outcome(_ policy: AuthenticationPolicy, on context: AuthenticationContext? = nil) async -> AuthenticationError? {
        do {
            try await (context ?? self.context()).evaluate(policy, localizedReason: "Testing")
            return nil
        } catch {
            return error
        }
    }

    /// The error `canEvaluate` reports, or nil when the policy can be evaluated.
    public func readiness(_ policy: AuthenticationPolicy, on context: AuthenticationContext? = nil) async -> AuthenticationError? {
        do {
            try await (context ?? self.context()).canEvaluate(policy)
            return nil
        } catch {
            return error
        }
    }

    /// Runs five non-matching scans over two prompts so biometrics locks out.
    ///
    /// - Returns: The error of the second prompt (`biometryLockout` expected).
    public func lockOut() async -> AuthenticationError? {
        sensor.present(.noMatch, .noMatch, .noMatch)
        _ = await outcome(.biometrics)
        sensor.present(.noMatch, .noMatch)
        return await outcome(.biometrics)
    }
}
