/// The owner's answer to an ``AppAccessRequest`` (SPEC D13).
public enum AppAccessAnswer: Sendable, Hashable {
    /// This once: for the context that asked, and only the item named.
    case allowOnce
    /// From now on: the asking app is stored with the item as allowed (SPEC D8).
    case allowAlways
    /// Refused, or the dialog was closed or cancelled.
    case refused
    /// Nothing could be shown (no display, no terminal, no pinentry); the
    /// reason says which. Never reported as the owner refusing.
    case nobodyAsked(String)
}
