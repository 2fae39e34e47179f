import ArgumentParser
import Sesame

extension CommandFailure {
    /// Maps a vault error to its exit code (see ``ExitStatus``), keeping the
    /// library's sentence as the message.
    init(_ error: VaultError) {
        if error.authenticationError?.retryAfter != nil {
            // The vault's own sentence says until when, and whether anything was checked.
            self.init(status: .lockedOut, message: error.message)
            return
        }
        if error.sessionLock != nil {
            // Not a prompt nobody could see: the item's class refused it (SPEC D14).
            self.init(status: .sessionLocked, message: error.message)
            return
        }
        if let authentication = error.authenticationError, authentication.code == .systemCancel,
           authentication.reason?.kind == .sessionLocked {
            self.init(authentication)
            return
        }
        if let authentication = error.authenticationError, authentication.code == .biometryLockout {
            self.init(authentication)
            return
        }
        let status: ExitStatus = switch error.status {
        case .itemNotFound: .notFound
        case .authFailed: .authenticationFailed
        case .userCanceled: .cancelled
        case .interactionNotAllowed: .notInteractive
        case .notAvailable: .notAvailable
        case .itemInvalidated: .itemInvalidated
        // A vault open to others may have been read or swapped: like a
        // damaged one, a person must look before anything uses it again.
        case .tampered, .damaged, .insecurePermissions: .damaged
        // No such slot, or the device key file is missing.
        case .locked: .notAvailable
        case .invalidArgument: .usage
        case .invalidName: .invalidName
        case .duplicateItem, .ioError, .success: .failure
        }
        guard status == .notInteractive else {
            self.init(status: status, message: error.message)
            return
        }
        // Say where a prompt could have appeared: with nothing to show one
        // on, nothing is asked of the owner (no unseen scan, SPEC A5).
        self.init(status: status, message: error.message + "; " + Self.whereAPromptCanShow)
    }

    /// What lets `sesame` ask the owner, for a refusal that needed a prompt.
    static let whereAPromptCanShow = "a prompt needs a terminal, or a desktop (DISPLAY or WAYLAND_DISPLAY, for pinentry or SSH_ASKPASS), "
        + "or the session bus (DBUS_SESSION_BUS_ADDRESS) to be shown on, and no --no-interaction"

    /// There is no vault at `path`: exit 3 ("not found"), as for an item.
    static func noVault(at path: String) -> CommandFailure {
        CommandFailure(status: .notFound, message: "there is no vault at \(path); create one with `sesame init`")
    }

    /// Any error a vault command can end with.
    init(any error: any Error) {
        switch error {
        case let failure as CommandFailure: self = failure
        case let vault as VaultError: self.init(vault)
        case let file as PrivateFile.OutputFailure: self.init(file)
        case let authentication as AuthenticationError: self.init(authentication)
        case let validation as ValidationError: self.init(status: .usage, message: validation.message)
        default: self.init(status: .failure, message: "\(error)")
        }
    }
}

/// Runs a command's body, turning its errors into ``CommandFailure``s that
/// are reported as JSON on standard output when `json` is set.
func reporting(json: Bool, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        var failure = CommandFailure(any: error)
        failure.json = json
        throw failure
    }
}
