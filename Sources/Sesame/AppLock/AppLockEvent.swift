#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What happens to the app lock: the app's life cycle, the owner, and the
/// outcomes of the checks the lock started.
public enum AppLockEvent: Sendable, Hashable {
    /// The app started.
    case launch
    /// The app came back to the foreground at the given time.
    case resume(at: Date)
    /// The app went to the background at the given time.
    case background(at: Date)
    /// The method for this unlock was chosen (the outcome of ``AppLockEffect/chooseMethod``).
    case methodChosen(AppLockMethod)
    /// The running check succeeded.
    case success
    /// The running check failed.
    case failure
    /// The owner chose the prompt's fallback button.
    case fallback
    /// The running check hit a back-off delay.
    case delayed(until: Date)
    /// The owner or the system cancelled the running check.
    case cancel
    /// The owner tapped or pressed a key on the cover.
    case ownerActedOnCover
}
