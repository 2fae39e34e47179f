#if os(Linux)
import CSesameLinux
import Foundation
import Sesame

/// Wraps a presenter and also shows each prompt as a desktop notification
/// (`org.freedesktop.Notifications` on the session bus), for the ssh-agent:
/// the owner sees what is being signed and that the reader waits, terminal
/// or not. A session bus that is missing or refuses changes
/// nothing: the prompt goes on without the notification.
public final class NotifyingPresenter: PromptPresenter {
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
        // sd-bus blocks; one short-lived connection on a thread of its own.
        _ = DedicatedThread.detach(name: "sesame-notify") { Self.notify(address: address, summary: summary, body: body) }
        await base?.begin(prompt)
    }

    public func show(_ message: PromptMessage) async { await base?.show(message) }

    public func userAction() async -> PromptAction? { await base?.userAction() }

    public func requestSecret(_ request: SecretRequest) async -> SecretEntry {
        await base?.requestSecret(request) ?? .cancelled
    }

    public func end(_ outcome: AuthenticationError?) async { await base?.end(outcome) }

    private static func notify(address: String, summary: String, body: String) {
        guard sesame_sdbus_load() == 0 else { return }
        var bus: OpaquePointer?
        guard sesame_sdbus_open(address, &bus) >= 0, let bus else { return }
        defer { sesame_sdbus_close(bus) }
        var error = sesame_sd_bus_error(name: nil, message: nil, _need_free: 0)
        _ = sesame_sdbus_notify(bus, "sesame", summary, body, 30_000, 2_000_000, &error)
        sesame_sdbus_error_free(&error)
    }
}
#endif
