#if os(Linux)
import Foundation
import Sesame

/// Wraps a presenter and also shows each prompt as a desktop notification
/// (`org.freedesktop.Notifications` on the session bus), for the ssh-agent:
/// the owner sees what is being signed and that the reader waits, terminal
/// or not. A session bus that is missing or refuses changes
/// nothing: the prompt goes on without the notification.
public final class NotifyingPresenter: PromptPresenter, AppAccessPresenter {
    private let base: (any PromptPresenter)?
    private let address: String

    /// - Parameters:
    ///   - base: The presenter that shows the prompt and asks for secrets, if any.
    ///   - environment: The process environment.
    /// - Returns: `nil` when `DBUS_SESSION_BUS_ADDRESS` is unset.
    public init?(wrapping base: (any PromptPresenter)?, environment: [String: String]) {
        guard let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else { return nil }
        self.base = base
        self.address = address
    }

    public func begin(_ prompt: AuthenticationPrompt) async {
        let body = prompt.method == .biometrics ? "Touch the fingerprint reader." : "Enter your password when asked."
        let (address, summary) = (self.address, "\(prompt.appName): \(prompt.reason)".escapingControlCharacters())
        // The prompt does not wait for the notification, nor fail with it.
        Task.detached { await Self.notify(address: address, summary: summary, body: body) }
        await base?.begin(prompt)
    }

    public func show(_ message: PromptMessage) async { await base?.show(message) }

    public func userAction() async -> PromptAction? { await base?.userAction() }

    public func requestSecret(_ request: SecretRequest) async -> SecretEntry {
        // A notification cannot take a password: without a dialog nobody is asked.
        await base?.requestSecret(request) ?? .notShown("no dialog or terminal can ask for a password, only a notification")
    }

    public func end(_ outcome: AuthenticationError?) async { await base?.end(outcome) }

    /// `Notify(s app_name, u replaces_id, s app_icon, s summary, s body,
    /// as actions, a{sv} hints, i expire_timeout)` on one short-lived
    /// connection; any failure is dropped.
    private static func notify(address: String, summary: String, body: String) async {
        _ = try? await DBusClient.withConnection(address: address, name: "sesame-notify") { client throws(DBusError) in
            _ = try client.call(
                "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", member: "Notify",
                [.string("sesame"), .uint32(0), .string(""), .string(summary), .string(body),
                 .array(element: "s", []), .array(element: "{sv}", []), .int32(30_000)],
                timeoutMicroseconds: 2_000_000
            )
        }
    }

    /// The wrapped presenter asks, when it can (SPEC D13).
    public func askAppAccess(_ request: AppAccessRequest) async -> AppAccessAnswer {
        guard let asking = base as? any AppAccessPresenter else {
            return .nobodyAsked("no dialog or terminal can ask which app may use the item")
        }
        return await asking.askAppAccess(request)
    }
}
#endif
