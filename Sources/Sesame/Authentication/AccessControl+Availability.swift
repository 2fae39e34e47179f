extension AccessControl {
    /// Why nothing on this machine can satisfy this access control now, or
    /// `nil` when something can. Never prompts and never scans.
    ///
    /// An item or key made under such an access control is stored all the
    /// same (a reader may be plugged in, a PAM service written, later), but
    /// reading or using it fails until then; callers warn the owner when
    /// they create it. A fingerprint lockout counts as available: it ends
    /// on its own. An application password is always available: the owner
    /// gives it.
    ///
    /// - Parameter authenticators: This machine's backends.
    /// - Returns: A sentence naming each missing means and why it is
    ///   missing, or `nil`.
    public func unsatisfiableReason(on authenticators: Authenticators) async -> String? {
        var fingerprint: String?
        do throws(AuthenticationError) {
            try await AuthenticationContext(authenticators).canEvaluate(.biometrics)
        } catch where error.code != .biometryLockout {
            fingerprint = error.message
        } catch {}
        let loginPassword: String? = switch await authenticators.devicePasscode?.currentState() {
        case .set?: nil
        case .notSet(let reason)?: reason.detail
        case nil: "nothing checks it on this platform"
        }
        func missing(_ flag: Flag) -> String? {
            switch flag {
            case .biometryAny, .biometryCurrentSet:
                fingerprint.map { "no fingerprint (\($0))" }
            case .devicePasscode:
                loginPassword.map { "no login password (\($0))" }
            case .userPresence:
                fingerprint.flatMap { fingerprint in loginPassword.map { "neither a fingerprint (\(fingerprint)) nor the login password (\($0))" } }
            case .applicationPassword, .privateKeyUsage:
                nil
            }
        }
        let checked = flags.filter { $0 != .privateKeyUsage }.sorted()
        let reasons = checked.compactMap(missing)
        // `or` fails only when every flag does; `and` when any one does.
        let unsatisfiable = combination == .or ? !checked.isEmpty && reasons.count == checked.count : !reasons.isEmpty
        guard unsatisfiable else { return nil }
        return "nothing on this machine can satisfy it now: " + Array(Set(reasons)).sorted().joined(separator: "; ")
    }
}
