/// A sensor's state, as reported without prompting.
public struct BiometricSensorState: Sendable, Hashable {
    /// Whether the sensor can be used now.
    public enum Availability: Sendable, Hashable {
        /// Ready, with at least one biometric enrolled.
        case ready
        /// Working, but nothing is enrolled.
        case notEnrolled
        /// Locked out by the sensor itself.
        case lockedOut
        /// Not usable, for the given reason.
        case unavailable(UnavailableReason)
    }

    /// Whether the sensor can be used now.
    public var availability: Availability
    /// The kind of biometric.
    public var biometryType: BiometryType
    /// The enrolment's digest; `nil` when it cannot be read.
    public var domainState: DomainState?
    /// A name for the device, for status displays (e.g. "Virtual device for debugging").
    public var deviceName: String?
    /// The names of enrolled biometrics, where the platform tells them
    /// (fprintd: finger names). Empty where it does not.
    public var enrolled: [String]

    /// Creates a state.
    ///
    /// - Parameters:
    ///   - availability: Whether the sensor can be used now.
    ///   - biometryType: The kind of biometric.
    ///   - domainState: The enrolment digest, when known.
    ///   - deviceName: A display name for the device.
    ///   - enrolled: Names of enrolled biometrics, when known.
    public init(
        availability: Availability,
        biometryType: BiometryType,
        domainState: DomainState? = nil,
        deviceName: String? = nil,
        enrolled: [String] = []
    ) {
        self.availability = availability
        self.biometryType = biometryType
        self.domainState = domainState
        self.deviceName = deviceName
        self.enrolled = enrolled
    }

    /// A state for a machine without a usable sensor.
    ///
    /// - Parameter reason: Why there is none.
    /// - Returns: An unavailable state of type ``BiometryType/none``.
    public static func unavailable(_ reason: UnavailableReason) -> BiometricSensorState {
        BiometricSensorState(availability: .unavailable(reason), biometryType: .none)
    }
}
