import Sesame

/// One `VerifyStart` … `VerifyStatus(done)` … `VerifyStop` round, on the
/// session's thread.
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
        _ context: BusThreadContext,
        finger: String,
        timeout: UInt64,
        isCancelled: @Sendable () -> Bool,
        hint: @Sendable (ScanHint) -> Void
    ) -> Result<ScanResult, BiometricSensorError> {
        guard context.claimed, let bus = context.connection, let device = context.devicePath else {
            return .failure(.unavailable(UnavailableReason(.hardwareError, "the fingerprint session has ended")))
        }
        if isCancelled() { return .failure(.cancelled) }
        // Anything queued now is from an earlier round, such as the no-match
        // fprintd reports for a stopped verify: it must not answer this scan.
        while (try? bus.nextMessage(timeoutMicroseconds: 0)) != nil {}
        do throws(BusFailure) {
            try FprintdBus.deviceCall("VerifyStart", [finger], device: device, bus, timeout: timeout)
        } catch {
            return .failure(FprintdFailures.sensorError(error))
        }
        context.verifying = true

        while true {
            if isCancelled() {
                stop(context, bus: bus, device: device, timeout: timeout)
                return .failure(.cancelled)
            }
            let message: BusMessage?
            do throws(BusFailure) {
                message = try bus.nextMessage(timeoutMicroseconds: pollMicroseconds)
            } catch {
                context.verifying = false
                return .failure(FprintdFailures.sensorError(error))
            }
            guard let message else { continue }
            switch interpret(message, device: device) {
            case .ignored:
                continue
            case .hint(let scanHint):
                hint(scanHint)
            case .finished(let result):
                if case .failure(.unavailable(let reason)) = result, reason.kind == .serviceNotRunning {
                    // fprintd is gone, and with it the claim.
                    context.verifying = false
                    context.claimed = false
                } else {
                    stop(context, bus: bus, device: device, timeout: timeout)
                }
                return result
            }
        }
    }

    /// fprintd needs `VerifyStop` after every round before the next `VerifyStart`.
    private static func stop(_ context: BusThreadContext, bus: BusConnection, device: String, timeout: UInt64) {
        try? FprintdBus.deviceCall("VerifyStop", device: device, bus, timeout: timeout)
        context.verifying = false
    }

    static func interpret(_ message: BusMessage, device: String) -> Outcome {
        if message.isSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged") {
            guard let name = try? message.readString(), name == FprintdBus.service,
                  (try? message.readString()) != nil, let newOwner = try? message.readString(),
                  newOwner.isEmpty
            else { return .ignored }
            return .finished(.failure(.unavailable(UnavailableReason(.serviceNotRunning, "fprintd stopped during the scan"))))
        }
        guard message.isSignal(interface: FprintdBus.deviceInterface, member: "VerifyStatus"),
              message.path == device,
              let result = try? message.readString(),
              let done = try? message.readBool()
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
