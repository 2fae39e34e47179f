/// The machine's authentication mechanisms at one moment, as
/// ``AuthenticationEnvironment`` reports them: what `LAEnvironment` and
/// `LAContext.domainState` tell an Apple app. Never holds a secret.
public struct AuthenticationEnvironmentState: Sendable, Hashable {
    /// The biometric sensor, as an evaluation of `.biometrics` would find it.
    public struct Biometry: Sendable, Hashable {
        /// Whether `.biometrics` can be evaluated now (a reader, a finger
        /// enrolled, no lockout).
        public var isAvailable: Bool
        /// Whether a finger (or face) is enrolled.
        public var isEnrolled: Bool
        /// The enrolled fingers' names, where the sensor tells them
        /// (fprintd: `right-index-finger`).
        public var enrolled: [String]
        /// Whether too many failed matches locked biometrics out (SPEC A4).
        public var isLockedOut: Bool
        /// The kind of sensor.
        public var biometryType: BiometryType
        /// The enrolment's domain state (SPEC A8): changes whenever a
        /// biometric is added or removed.
        public var domainState: DomainState?
        /// Why biometrics cannot be evaluated, when they cannot.
        public var unavailableReason: UnavailableReason?

        /// Creates a description of the sensor.
        ///
        /// - Parameters:
        ///   - isAvailable: Whether `.biometrics` can be evaluated.
        ///   - isEnrolled: Whether a biometric is enrolled.
        ///   - isLockedOut: Whether biometrics are locked out.
        ///   - biometryType: The kind of sensor.
        ///   - domainState: The enrolment's domain state.
        ///   - unavailableReason: Why biometrics cannot be evaluated.
        ///   - enrolled: The enrolled fingers' names.
        public init(isAvailable: Bool, isEnrolled: Bool, isLockedOut: Bool, biometryType: BiometryType,
                    domainState: DomainState?, unavailableReason: UnavailableReason?, enrolled: [String] = []) {
            self.isAvailable = isAvailable
            self.isEnrolled = isEnrolled
            self.enrolled = enrolled
            self.isLockedOut = isLockedOut
            self.biometryType = biometryType
            self.domainState = domainState
            self.unavailableReason = unavailableReason
        }
    }

    /// The sensor.
    public var biometry: Biometry
    /// Whether a device passcode (the login password) is set and can be checked.
    public var isDevicePasscodeSet: Bool
    /// The owner's session lock (SPEC D14); `nil` where nothing observes it.
    public var session: SessionLockState?

    /// Creates a state.
    ///
    /// - Parameters:
    ///   - biometry: The sensor.
    ///   - isDevicePasscodeSet: Whether the login password is set.
    ///   - session: The session lock, if observed.
    public init(biometry: Biometry, isDevicePasscodeSet: Bool, session: SessionLockState?) {
        self.biometry = biometry
        self.isDevicePasscodeSet = isDevicePasscodeSet
        self.session = session
    }
}
