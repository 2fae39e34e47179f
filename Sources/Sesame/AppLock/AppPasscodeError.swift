#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why an app-passcode operation failed.
public enum AppPasscodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No app passcode is set.
    case notSet
    /// A passcode is already set; change it with the current one instead.
    case alreadySet
    /// An empty passcode was given.
    case emptyPasscode
    /// The current passcode given was wrong (the failure was counted).
    case wrongPasscode
    /// Too many wrong entries: nothing is checked until the given time.
    case delayed(until: Date)
    /// The app's recovery (e.g. signing in again) did not succeed.
    case recoveryFailed
    /// Erase-after-ten-failures needs an `onErase` handler, and none was given.
    case eraseHandlerMissing
    /// The tenth wrong entry in a row erased the protected data and removed the passcode.
    case erased
    /// The record could not be read, written or understood.
    case storage(String)

    public var description: String {
        switch self {
        case .notSet: "No app passcode is set"
        case .alreadySet: "An app passcode is already set; change it with the current one"
        case .emptyPasscode: "The app passcode must not be empty"
        case .wrongPasscode: "The app passcode is wrong"
        case .delayed(let until): "Too many wrong passcodes; try again after \(until)"
        case .recoveryFailed: "The recovery did not succeed; the app passcode is unchanged"
        case .eraseHandlerMissing: "Erasing after ten failures needs an erase handler"
        case .erased: "Ten wrong passcodes in a row: the protected data was erased and the passcode removed"
        case .storage(let message): "The app passcode record cannot be used: \(message)"
        }
    }
}
