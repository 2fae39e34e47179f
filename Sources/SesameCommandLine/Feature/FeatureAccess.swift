import Sesame
#if os(Linux)
import SesameLinux
#endif

/// The CLI's feature-protection flags, kept in the vault
/// (``VaultAppRecordStore``) rather than in a file of their own:
/// a file store is undone by deleting the file, which then reads as "nothing
/// is protected", while a record in the vault is bound to its master key and
/// to the secrets it guards, and `--vault` selects both together.
struct FeatureAccess {
    /// The record's name within the vault.
    static let appIdentifier = "sesame"

    let protection: FeatureProtection
    let noInteraction: Bool

    /// The facade on `vault`'s record, prompting with `machine`: the
    /// library's vault-backed protection, whose owner check after an
    /// enrolment change (SPEC C2) is the vault passcode
    /// (`OwnerVerification.vaultPasscode`, counted and delayed, SPEC E5).
    init(vault: Vault, machine: Machine, options: VaultOptions) {
        let verification: OwnerVerification = if options.passcodeFD != nil {
            // With --passcode-fd the vault was opened by that very passcode in
            // this run (VaultOptions.open never falls back to the device key
            // then), and the descriptor has been read to its end.
            .custom { _ in true }
        } else {
            .vaultPasscode(vaultAt: vault.path, authenticators: machine.authenticators) { _ in
                try? await options.passcode(prompt: "The enrolled fingerprints changed; vault passcode")
            }
        }
        protection = FeatureProtection(vault: vault, appIdentifier: Self.appIdentifier,
                                       authenticators: machine.authenticators, ownerVerification: verification)
        noInteraction = options.noInteraction
    }

    /// Opens the vault and its feature record.
    static func open(_ options: VaultOptions) async throws -> FeatureAccess {
        let machine = try options.machine()
        let vault = try await options.open(machine)
        return FeatureAccess(vault: vault, machine: machine, options: options)
    }

    /// The check `feature` needs (SPEC B5, C2): none when it is not protected.
    ///
    /// - Throws: ``CommandFailure``; exit 10 under `--no-interaction` when
    ///   the feature is protected, since every check of one is a scan.
    func authenticate(_ feature: Feature, reason: String) async throws {
        try await refusePromptIfProtected(feature)
        do throws(FeatureProtectionError) {
            try await protection.authenticate(feature, reason: reason)
        } catch {
            throw CommandFailure(error, feature: feature)
        }
    }

    /// Under `--no-interaction`, fails with exit 10 when `feature` is
    /// protected: the library's own contexts would wait for a finger.
    func refusePromptIfProtected(_ feature: Feature) async throws {
        guard noInteraction else { return }
        let policy: FeatureProtectionPolicy?
        do throws(FeatureProtectionError) {
            policy = try await protection.protectionPolicy(for: feature)
        } catch {
            throw CommandFailure(error, feature: feature)
        }
        if policy != nil {
            throw CommandFailure(status: .notInteractive,
                                 message: "\(feature) is protected and needs a fingerprint check, but --no-interaction was given")
        }
    }
}

extension CommandFailure {
    /// Maps a feature-protection error to its exit code (see ``ExitStatus``).
    init(_ error: FeatureProtectionError, feature: Feature? = nil) {
        let subject = feature.map { "\($0): " } ?? ""
        switch error {
        case .unavailable(let reason):
            self.init(status: reason.code == .biometryLockout ? .lockedOut : .notAvailable,
                      message: subject + error.description)
        case .authenticationFailed(let reason):
            self.init(reason)
        case .enrolmentChanged:
            self.init(status: .authenticationFailed, message: subject + error.description + " (here: the vault passcode)")
        case .recordTampered:
            self.init(status: .damaged, message: error.description)
        case .storage:
            self.init(status: .failure, message: error.description)
        }
    }
}
