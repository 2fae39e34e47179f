/// An `Unlock` waiting for its owner: the items, who asked, and once
/// `Prompt` is called, the authentication running for them.
struct PendingPrompt: Sendable {
    /// The client that got the prompt; only it may run or dismiss it.
    let owner: String
    let ownerPID: Int32
    let items: [SecretServiceItemID]
    /// Already unlocked when the prompt was made; part of the result.
    let alreadyUnlocked: [String]
    var started = false
    var dismissed = false
    var task: Task<Void, any Error>?
}
