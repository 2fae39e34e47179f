import Sesame

/// One claim of the reader, on one connection and one thread.
final class FprintdSession: BiometricSession {
    private let thread: BusThread
    private let configuration: FprintdSensor.Configuration

    private init(thread: BusThread, configuration: FprintdSensor.Configuration) {
        self.thread = thread
        self.configuration = configuration
    }

    deinit {
        // Safety net for a session dropped without end(): the claim must not outlive it.
        let timeout = configuration.timeoutMicroseconds
        thread.shutdownSoon { context in FprintdBus.releaseAll(context, timeout: timeout) }
    }

    static func begin(_ configuration: FprintdSensor.Configuration) async throws(BiometricSensorError) -> FprintdSession {
        let thread = BusThread()
        let timeout = configuration.timeoutMicroseconds
        let claimed = await thread.run { context -> Result<Void, BusFailure> in
            do throws(BusFailure) {
                let bus = try FprintdBus.connect(context, address: configuration.systemBusAddress)
                let device = try FprintdBus.defaultDevice(bus, timeout: timeout)
                context.devicePath = device
                for rule in FprintdBus.matchRules(device: device) { try bus.addMatch(rule) }
                try FprintdBus.deviceCall("Claim", [configuration.username], device: device, bus, timeout: timeout)
                context.claimed = true
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        let session = FprintdSession(thread: thread, configuration: configuration)
        switch claimed {
        case .success:
            return session
        case .failure(let failure):
            await session.end()
            throw FprintdFailures.sensorError(failure)
        case nil:
            throw .unavailable(UnavailableReason(.hardwareError, "could not start a thread for the system bus"))
        }
    }

    func scan(hint: @escaping @Sendable (ScanHint) async -> Void) async throws(BiometricSensorError) -> ScanResult {
        let finger = configuration.finger
        let timeout = configuration.timeoutMicroseconds
        let cancelled = Locked(false)
        let (hints, hintSink) = AsyncStream<ScanHint>.makeStream()
        // Hints reach the caller in order while the thread keeps waiting.
        let forwarder = Task {
            for await scanHint in hints { await hint(scanHint) }
        }
        let result = await withTaskCancellationHandler {
            await thread.run { context in
                defer { hintSink.finish() }
                return FprintdVerify.run(
                    context,
                    finger: finger,
                    timeout: timeout,
                    isCancelled: { cancelled.withLock { $0 } },
                    hint: { hintSink.yield($0) }
                )
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
        hintSink.finish()
        await forwarder.value
        switch result {
        case .success(let scanResult)?: return scanResult
        case .failure(let error)?: throw error
        case nil: throw .unavailable(UnavailableReason(.hardwareError, "the fingerprint session has ended"))
        }
    }

    func end() async {
        let timeout = configuration.timeoutMicroseconds
        await thread.shutdown { context in FprintdBus.releaseAll(context, timeout: timeout) }
    }
}
