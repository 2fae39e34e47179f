import Sesame

/// One `VerifyStart` … `VerifyStatus(done)` … `VerifyStop` round, on the
/// claim's thread.
enum FprintdVerify {
    /// How often a waiting scan looks at its cancellation flag. Results do not
    /// wait for this: `sd_bus_wait` returns as soon as a message arrives.
    static let pollMicroseconds: UInt64 = 20_000

    enum Outcome: Sendable {
        case hint(ScanHint)
        case finished(Result<ScanResult, BiometricSensorError>)
        case ignored
    }

    static func run(
        _ bus: DBusClient,
        _ state: Locked<FprintdClaimState>,
        finger: String,
        timeout: UInt64,
        isCancelled: @Sendable () -> Bool,
        hint: @Sendable (ScanHint) -> Void
    ) -> Result<ScanResult, BiometricSensorError> {
        guard let device = state.withLock({ $0.claimed ? $0.devicePath : nil }) else {
            return .failure(.unavailable(UnavailableReason(.hardwareError, "the fingerprint reader was released")))
        }
        if isCancelled() { return .failure(.cancelled) }
        // Anything queued now is from an earlier round, such as the no-match
        // fprintd reports for a stopped verify: it must not answer this scan.
        while (try? bus.nextSignal(timeoutMicroseconds: 0)) != nil {}
        do throws(DBusError) {
            try FprintdBus.deviceCall("VerifyStart", [finger], device: device, bus, timeout: timeout)
        } catch {
            return .failure(FprintdFailures.sensorError(error))
        }
        state.withLock { $0.verifying = true }

        while true {
            if isCancelled() {
                stop(bus, state, device: device, timeout: timeout)
                return .failure(.cancelled)
            }
            let signal: DBusSignal?
            do throws(DBusError) {
                signal = try bus.nextSignal(timeoutMicroseconds: pollMicroseconds)
            } catch {
                state.withLock { $0.verifying = false }
                return .failure(FprintdFailures.sensorError(error))
            }
            guard let signal else { continue }
            switch interpret(signal, device: device) {
            case .ignored:
                continue
            case .hint(let scanHint):
                hint(scanHint)
            case .finished(let result):
                if case .failure(.unavailable(let reason)) = result, reason.kind == .serviceNotRunning {
                    // fprintd is gone, and with it the claim.
                    state.withLock { state in
                        state.verifying = false
                        state.claimed = false
                    }
                } else {
                    stop(bus, state, device: device, timeout: timeout)
                }
                return result
            }
        }
    }

    /// fprintd needs `VerifyStop` after every round before the next `VerifyStart`.
    private static func stop(_ bus: DBusClient, _ state: Locked<FprintdClaimState>, device: String, timeout: UInt64) {
        try? FprintdBus.deviceCall("VerifyStop", device: device, bus, timeout: timeout)
        state.withLock { $0.verifying = false }
    }

    static func interpret(_ signal: DBusSignal, device: String) -> Outcome {
        if signal.matches(interface: "org.freedesktop.DBus", member: "NameOwnerChanged") {
            guard let arguments = signal.arguments, arguments.count >= 3,
                  arguments[0].stringValue == FprintdBus.service,
                  arguments[1].stringValue != nil, let newOwner = arguments[2].stringValue,
                  newOwner.isEmpty
            else { return .ignored }
            return .finished(.failure(.unavailable(UnavailableReason(.serviceNotRunning, "fprintd stopped during the scan"))))
        }
        guard signal.matches(interface: FprintdBus.deviceInterface, member: "VerifyStatus", path: device),
              let arguments = signal.arguments, arguments.count >= 2,
              let result = arguments[0].stringValue,
              let done = arguments[1].booleanValue
        else { return .ignored }
        return outcome(result: result, done: done)
    }

    static func outcome(result: String, done: Bool) -> Outcome {
        switch result {
        case "verify-match": return .finished(.success(.match))
        case "verify-no-match": return .finished(.success(.noMatch))
        case "verify-retry-scan": return .hint(.retryScan)
        case "verify-swipe-too-short": return .hint(.swipeTooShort)
        case "verify-finger-not-centered": return .hint(.fingerNotCentered)
        case "verify-remove-and-retry": return .hint(.removeAndRetry)
        case "verify-disconnected":
            return .finished(.failure(.unavailable(UnavailableReason(.disconnected, "the fingerprint reader was disconnected"))))
        case "verify-unknown-error":
            return .finished(.failure(.unavailable(
                UnavailableReason(.hardwareError, "the fingerprint reader reported an unknown error"))))
        default:
            // A result newer than this code: only a final one can end the scan.
            guard done else { return .ignored }
            return .finished(.failure(.unavailable(UnavailableReason(.hardwareError, "fprintd reported \(result)"))))
        }
    }
}
