#if os(Linux)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// The app passcode pad for command-line apps (SPEC E3), on the controlling
/// terminal (`/dev/tty`).
///
/// - The passcode is read masked (one `*` per character) straight into
///   bytes that are wiped after use.
/// - After a wrong entry it says how many attempts are left before the next
///   delay, or before the erase when that is on.
/// - While a delay runs it counts down on one line, re-drawn every second,
///   and checks nothing; keys typed meanwhile are swallowed, not queued.
/// - Ctrl-C or Esc cancels at any point and leaves the terminal as it was.
public final class TerminalPasscodePad: Sendable {
    private let terminal: TerminalDevice
    private let presenter: TerminalPresenter
    private let tick: Duration

    /// Opens the controlling terminal.
    ///
    /// - Parameters:
    ///   - path: The terminal device; `/dev/tty` by default.
    ///   - tick: How often the countdown is re-drawn; every second by default.
    /// - Returns: `nil` when the process has no terminal.
    public init?(path: String = "/dev/tty", tick: Duration = .seconds(1)) {
        guard let terminal = TerminalDevice(path: path), let presenter = TerminalPresenter(path: path) else { return nil }
        self.terminal = terminal
        self.presenter = presenter
        self.tick = tick
    }

    /// Asks for the app passcode until it is right, the owner cancels, or
    /// it cannot be checked.
    ///
    /// - Parameters:
    ///   - passcode: The app passcode to check.
    ///   - clock: The clock the passcode's delays use, for the countdown.
    /// - Returns: `PasscodeVerification.accepted`, `PasscodeVerification.cancelled`
    ///   (Ctrl-C, Esc, or the task was cancelled), or `PasscodeVerification.unavailable(_:)`.
    public func unlock(_ passcode: AppPasscode, clock: any AuthenticationClock = SystemClock()) async -> PasscodeVerification {
        while !Task.isCancelled {
            let status: AppPasscodeStatus?
            do {
                status = try await passcode.status()
            } catch {
                terminal.write("\(error)\n")
                return .unavailable(UnavailableReason(.stateUnavailable, error.description))
            }
            guard let status else {
                terminal.write("No app passcode is set.\n")
                return .unavailable(UnavailableReason(.notConfigured, "No app passcode is set"))
            }
            if let until = status.delayedUntil {
                guard await waitOut(until, clock: clock) else { return cancelled() }
                continue
            }
            if let hint = Self.attemptsHint(status) { terminal.write(hint + "\n") }
            guard case .entered(let entered) = await presenter.requestSecret(SecretRequest(kind: .appPasscode, prompt: "App passcode: ")) else {
                return cancelled()
            }
            switch await passcode.verify(entered) {
            case .accepted:
                terminal.write("Unlocked.\n")
                return .accepted
            case .rejected, .delayed:
                // A delay returned here started with this entry: it was wrong.
                terminal.write("Wrong passcode.\n")
            case .cancelled:
                return cancelled()
            case .unavailable(let reason):
                terminal.write(reason.detail + ".\n")
                return .unavailable(reason)
            }
        }
        return cancelled()
    }

    private func cancelled() -> PasscodeVerification {
        terminal.write("Cancelled.\n")
        return .cancelled
    }

    /// Counts down to `until` while swallowing keys; `false` when the owner
    /// pressed Ctrl-C or Esc, or the task was cancelled.
    private func waitOut(_ until: Date, clock: any AuthenticationClock) async -> Bool {
        let terminal = self.terminal
        let tick = self.tick
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                // Returns only when a key cancels, or (as `true`) when the countdown won.
                await KeyReader.read(from: terminal, cancelled: true) { key in
                    key == 0x03 || key == 0x1B ? .finish(false) : .next
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    let remaining = until.timeIntervalSince(clock.now())
                    if remaining <= 0 { return true }
                    // \r and "erase line" redraw in place, one line per delay.
                    terminal.write("\r\u{1B}[KToo many wrong passcodes. Try again in \(Self.format(remaining)). (Ctrl-C cancels)")
                    try? await Task.sleep(for: tick)
                }
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        terminal.write("\r\u{1B}[K")
        return finished && !Task.isCancelled
    }

    static func attemptsHint(_ status: AppPasscodeStatus) -> String? {
        guard status.consecutiveFailures > 0 else { return nil }
        if let left = status.attemptsBeforeErase {
            return "\(left) \(left == 1 ? "attempt" : "attempts") left before the app's data is erased."
        }
        guard let left = status.attemptsBeforeDelay else { return nil }
        return "\(left) \(left == 1 ? "attempt" : "attempts") left before a wait."
    }

    /// `m:ss`, or `h:mm:ss` from an hour, rounded up so it never shows 0:00 early.
    static func format(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (total / 3600, total % 3600 / 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}
#endif
