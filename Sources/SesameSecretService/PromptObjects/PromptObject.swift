import Sesame

/// A Secret Service prompt object (`/org/freedesktop/secrets/prompt/N`,
/// interface `org.freedesktop.Secret.Prompt`): an `Unlock` waiting for its
/// owner, the items, who asked, and once its `Prompt` method is called, the
/// authentication running for them (what the owner is asked is the core's
/// prompt; this object only names the items and starts it).
struct PromptObject: Sendable {
    /// A collection the `Unlock` named, and its items that were locked.
    struct Collection: Sendable {
        let path: String
        let items: [SecretServiceItemID]
    }

    /// The client that got the prompt; only it may run or dismiss it, and
    /// only it hears its `Completed`.
    let owner: String
    let ownerPID: Int32
    /// When the client's connection existed (`CLOCK_BOOTTIME`, ns), for
    /// finding its terminal without trusting a reused pid.
    var ownerConnectedBy: UInt64 = 0
    /// The client's app (SPEC D13) when it asked; `nil` when unknown.
    let ownerApp: AppIdentity?
    /// Exactly what the prompt opens, once each: the items named and the
    /// locked items of the collections named.
    let items: [SecretServiceItemID]
    /// The collections named that had locked items; each is reported open
    /// when all of those opened.
    let collections: [Collection]
    /// Already unlocked when the prompt was made; part of the result.
    let alreadyUnlocked: [String]
    var started = false
    var dismissed = false
    var task: Task<Void, any Error>?
}
