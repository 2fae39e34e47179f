/// Where the last biometric success is kept for the reuse window (SPEC A6),
/// when it should outlive the ``AttemptStore``'s rules: for example in the
/// kernel keyring, so that the window spans processes but not reboots.
///
/// When ``Authenticators/reuseWindow`` is set, evaluations read the window
/// from here instead of ``AttemptRecord/lastBiometricSuccess``. The store
/// measures the time since the success on its own clock, so a clock that
/// cannot go back (such as `CLOCK_BOOTTIME`) makes the window immune to
/// wall-clock changes.
///
/// Sesame fails closed: a read that throws means no reuse, and a record that
/// throws only costs the next evaluation a prompt.
public protocol ReuseWindowStore: Sendable {
    /// Records that biometrics succeeded now, replacing any earlier success.
    ///
    /// - Parameter domainState: The enrolment at the success; reuse later
    ///   needs the same one.
    /// - Throws: When the success cannot be kept.
    func recordSuccess(domainState: DomainState?) async throws

    /// The last success still kept, if any.
    ///
    /// - Returns: The success and how long ago it was, or `nil` when none is kept.
    /// - Throws: When the store cannot be read; Sesame then does not reuse.
    func lastSuccess() async throws -> ReuseWindowEntry?

    /// Forgets the last success, ending any reuse window now. Succeeds when
    /// there is none.
    ///
    /// - Throws: When the success cannot be removed.
    func clear() async throws
}
