import Sesame

/// The fingerprint reader, through fprintd on the D-Bus system bus.
///
/// Talks to `net.reactivated.Fprint` through `DBusClient` (libsystemd's
/// sd-bus, loaded at run time): on a machine without libsystemd, fprintd or
/// a reader, the sensor reports itself unavailable with a reason instead of
/// failing to start.
/// Each evaluation uses a D-Bus connection of its own on a thread of its own,
/// because fprintd ties a claim to the connection that made it.
///
/// fprintd asks polkit before it lets a program list or verify fingers
/// (`net.reactivated.fprint.device.verify`); a refusal reads as
/// `UnavailableReason.Kind.permissionDenied`.
/// Lockout is not fprintd's business: `AuthenticationContext` counts failures.
///
/// ```swift
/// let sensor = FprintdSensor()
/// let authenticators = Authenticators(appName: "Notes", sensor: sensor, presenter: terminal)
/// ```
public struct FprintdSensor: BiometricSensor {
    /// How to reach fprintd and whose fingers to check.
    public let configuration: Configuration

    /// Creates a sensor.
    ///
    /// - Parameter configuration: The bus, finger and user; the defaults use
    ///   the system bus, any enrolled finger and the calling user.
    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Reads the default reader, its name and the user's enrolled fingers.
    /// Never prompts and never claims the reader.
    ///
    /// - Returns: `BiometricSensorState` with `BiometryType.fingerprint`
    ///   whenever fprintd reports a reader, and the domain state (SPEC A8).
    public func currentState() async -> BiometricSensorState {
        let configuration = configuration
        do throws(DBusError) {
            return try await DBusClient.withConnection(address: configuration.systemBusAddress, name: FprintdBus.threadName) { bus in
                FprintdDiscovery.state(bus, configuration: configuration)
            }
        } catch {
            // No libsystemd, no bus or no thread: the connection never opened.
            return .unavailable(FprintdFailures.reason(error))
        }
    }

    /// Connects to fprintd and claims the default reader for the calling user.
    ///
    /// - Returns: The claim, held until `BiometricClaim.release()`.
    /// - Throws: `BiometricSensorError.unavailable(_:)` with `deviceBusy`
    ///   when another program holds the reader, `permissionDenied` when polkit
    ///   refuses, `noSensor`, `serviceNotRunning`, `noSystemBus` or `libraryMissing`.
    public func claim() async throws(BiometricSensorError) -> any BiometricClaim {
        try await FprintdClaim.begin(configuration)
    }

    /// A first notice once the match rules are in place, then one when an
    /// enrolment ends (`EnrollStatus` with its last result, from any
    /// program's enrolment) and when fprintd comes or goes on the bus.
    /// fprintd announces no deletion: a deleted finger shows with the next
    /// notice of any part of the environment.
    ///
    /// - Returns: The notices; they end when the bus cannot be reached.
    public func stateChanges() -> AsyncStream<Void> {
        let (notices, notice) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(2))
        let signals = DBusSignalStream.signals(address: configuration.systemBusAddress, rules: FprintdBus.changeRules,
                                               name: FprintdBus.threadName, listening: { notice.yield() })
        let task = Task {
            for await signal in signals where FprintdBus.isStateChange(signal) { notice.yield() }
            notice.finish()
        }
        notice.onTermination = { _ in task.cancel() }
        return notices
    }
}
