import Sesame

/// The Secret portal's backend (SPEC D12): xdg-desktop-portal asks the
/// Secret Service's provider, at ``path`` on the same connection, for a
/// sandboxed app's own secret, which libsecret inside the sandbox uses as
/// the key of the app's keyring file.
///
/// The rules here are gnome-keyring's, so that a key it made keeps its
/// bytes here: one item per app id, found by its `app_id` attribute alone,
/// made on first request with 64 random bytes (libsecret refuses any other
/// length), the label "Application key for ID" and the portal's schema.
/// The caller outside any sandbox has the app id "" and is answered as
/// gnome-keyring answers it: with the key made for that empty id.
public enum SecretPortal {
    /// The object the portal calls (`org.freedesktop.impl.portal.Secret`).
    public static let path = "/org/freedesktop/portal/desktop"
    /// The backend interface.
    public static let interface = "org.freedesktop.impl.portal.Secret"
    /// The per-call request object's interface (only `Close`).
    static let requestInterface = "org.freedesktop.impl.portal.Request"
    /// The interface's `version` property.
    public static let version: UInt32 = 1
    /// How long an app's secret is; libsecret's file backend needs 64 bytes.
    public static let secretLength = 64
    /// The attribute that names the app.
    public static let appIDAttribute = "app_id"
    /// The schema a key made here carries (gnome-keyring 46 and later).
    public static let schema = "org.freedesktop.portal.Secret"
    /// The longest app id taken (D-Bus names, which app ids are, stop at 255 bytes).
    static let maximumAppIDLength = 255
    /// How long the write to the app's descriptor may wait for room.
    static let writeTimeoutMilliseconds: Int32 = 5_000

    /// The label of a key made for `appID`, as gnome-keyring labels it.
    /// - Parameter appID: The app id the portal gave.
    /// - Returns: "Application key for ID".
    public static func label(forAppID appID: String) -> String {
        "Application key for \(appID)"
    }

    /// The attributes a key made for `appID` carries.
    /// - Parameter appID: The app id the portal gave.
    /// - Returns: `app_id` and `xdg:schema`.
    public static func attributes(forAppID appID: String) -> [String: String] {
        [appIDAttribute: appID, "xdg:schema": schema]
    }

    /// The app a portal request is for (SPEC D13): the key is that app's,
    /// whoever relays the request. A snap's id is `snap.NAME` (as the
    /// portal names it); the host's empty id is no app, so its key is
    /// every host program's, as with gnome-keyring.
    /// - Parameter appID: The app id the portal gave.
    /// - Returns: The app, `nil` for the host.
    public static func app(forAppID appID: String) -> AppIdentity? {
        if appID.hasPrefix("snap.") { return AppIdentity(kind: .snap, id: String(appID.dropFirst("snap.".count))) }
        return AppIdentity(kind: .flatpak, id: appID)
    }

    /// Whether `attributes` are those of an app key for `appID`: its
    /// `app_id`, and nothing but a schema beside it. A password item that
    /// happens to carry an `app_id` attribute among others is never handed
    /// to a sandbox as its key.
    static func isAppKey(_ attributes: [String: String], appID: String) -> Bool {
        attributes[appIDAttribute] == appID && attributes.keys.allSatisfy { $0 == appIDAttribute || $0 == "xdg:schema" }
    }
}
