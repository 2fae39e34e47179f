/// What an ``AppAccessPresenter`` asks: an app wants an item another app
/// made (SPEC D13).
public struct AppAccessRequest: Sendable, Hashable {
    /// What the asking app wants to do with the item.
    public enum Operation: String, Sendable, Hashable {
        /// Read its secret.
        case read
        /// Change its secret, label or attributes, or replace it.
        case change
        /// Delete it.
        case delete
    }

    /// The app that asks; `nil` when it could not be told.
    public var asking: AppIdentity?
    /// The app that made the item.
    public var maker: AppIdentity
    /// The item's label as its owner stored it (outside text).
    public var itemLabel: String
    /// What the asking app wants.
    public var operation: Operation

    /// - Parameters:
    ///   - asking: The app that asks, if known.
    ///   - maker: The app that made the item.
    ///   - itemLabel: The item's label.
    ///   - operation: Read, change or delete.
    public init(asking: AppIdentity?, maker: AppIdentity, itemLabel: String, operation: Operation) {
        self.asking = asking
        self.maker = maker
        self.itemLabel = itemLabel
        self.operation = operation
    }

    /// The question, naming both apps and the item, control characters
    /// escaped: "`/usr/bin/firefox` wants the secret that
    /// `/usr/bin/chromium` stored: Chromium Safe Storage".
    public var question: String {
        let who = asking.map { "\($0)" } ?? "An unknown program"
        let what: String = switch operation {
        case .read: "wants the secret that"
        case .change: "wants to change the item that"
        case .delete: "wants to delete the item that"
        }
        return "\(who) \(what) \(maker) stored: \(itemLabel.escapingControlCharacters())"
    }
}
