#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// `sesame status --watch`: one line, or one JSON object, per change of the
/// machine's authentication state (`AuthenticationEnvironment`), until
/// interrupted. Never prompts.
enum StatusWatch {
    /// One change, as `--watch --json` prints it on a line of its own.
    struct Line: Encodable {
        struct Biometry: Encodable {
            var available: Bool
            var enrolled: [String]
            var lockedOut: Bool
            var biometryType: String
            /// A short fingerprint of the domain state (its first 4 bytes in
            /// hex): enough to see that the enrolment changed, not the value.
            var domainState: String?
            var reasonCode: String?
            var reason: String?
        }

        var time: Date
        var biometry: Biometry
        var devicePasscodeSet: Bool
        var session: StatusReport.SessionSection?
    }

    static func run(_ environment: AuthenticationEnvironment, json: Bool) async {
        for await state in environment.states() {
            let line = Line(state, at: Date())
            let text = json ? JSONOutput.encode(line, compact: true) : line.text
            print(text.escapingControlCharacters())
            fflush(nil)
        }
    }
}

extension StatusWatch.Line {
    init(_ state: AuthenticationEnvironmentState, at time: Date) {
        let biometry = state.biometry
        self.time = time
        self.biometry = Biometry(
            available: biometry.isAvailable, enrolled: biometry.enrolled, lockedOut: biometry.isLockedOut,
            biometryType: biometry.biometryType.rawValue,
            domainState: biometry.domainState.map { state in
                state.bytes.prefix(4).map { String($0 >> 4, radix: 16) + String($0 & 0xF, radix: 16) }.joined()
            },
            reasonCode: biometry.unavailableReason?.kind.rawValue, reason: biometry.unavailableReason?.detail)
        devicePasscodeSet = state.isDevicePasscodeSet
        session = state.session.map { StatusReport.SessionSection($0) }
    }

    /// "fingerprint ready (right-index-finger), login password set, session unlocked (…)".
    var text: String {
        var fingerprint = biometry.available ? "fingerprint ready" : "fingerprint not available"
        if biometry.lockedOut { fingerprint = "fingerprint locked out" }
        var details = biometry.enrolled
        if !biometry.available, let reason = biometry.reason { details.append(reason) }
        if !details.isEmpty { fingerprint += " (" + details.joined(separator: "; ") + ")" }
        let passcode = devicePasscodeSet ? "login password set" : "login password not set"
        let session = session.map { "session " + ($0.locked ? "locked" : $0.condition == "unobserved" ? "not observed" : "unlocked") + " (\($0.detail))" }
        return [fingerprint, passcode, session].compactMap { $0 }.joined(separator: ", ")
    }
}
