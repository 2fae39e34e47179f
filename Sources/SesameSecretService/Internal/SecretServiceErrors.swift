import Sesame
import SesameLinux

/// The Secret Service's own D-Bus errors (API 0.2, "Errors").
enum SecretServiceErrors {
    static let noSuchObjectName = "org.freedesktop.Secret.Error.NoSuchObject"

    static func noSuchObject(_ what: String) -> DBusError {
        DBusError(noSuchObjectName, "no such object: \(what.escapingControlCharacters())")
    }

    static func noSession(_ message: String) -> DBusError {
        DBusError("org.freedesktop.Secret.Error.NoSession", message)
    }

    static func isLocked(_ what: String) -> DBusError {
        DBusError("org.freedesktop.Secret.Error.IsLocked", "\(what.escapingControlCharacters()) is locked: unlock it first (Unlock, then its prompt)")
    }

    static func notSupported(_ message: String) -> DBusError {
        DBusError("org.freedesktop.DBus.Error.NotSupported", message)
    }

    /// A store error as the client sees it; a reason never holds a secret.
    static func from(_ error: any Error) -> DBusError {
        switch error {
        case let error as DBusError: return error
        case let error as SecretServiceStoreError:
            switch error {
            case .noSuchCollection(let id): return noSuchObject(SecretObject.collectionPath(id))
            case .noSuchItem(let id): return noSuchObject(SecretObject.itemPath(id))
            case .locked(let id): return isLocked(SecretObject.itemPath(id))
            case .cancelled: return DBusError("org.freedesktop.DBus.Error.Failed", "cancelled")
            case .failed(let reason): return .failed(reason.escapingControlCharacters())
            }
        default: return .failed("the store failed: \(String(describing: type(of: error)))")
        }
    }
}
