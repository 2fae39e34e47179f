import Sesame

/// One claim of the reader, on one connection and one thread.
final class FprintdClaim: BiometricClaim {
    private let thread: DBusClientThread
    private let state: Locked<FprintdClaimState>
    private let configuration: FprintdSensor.Configuration

    private init(thread: DBusClientThread, state: Locked<FprintdClaimState>, configuration: FprintdSensor.Configuration) {
        self.thread = thread
        self.state = state
        self.configuration = configuration
    }

    deinit {
        // Safety net for a claim dropped without release(): it must not outlive this object.
        let timeout = configuration.timeoutMicroseconds
        let state = state
        thread.shutdownSoon { bus in FprintdBus.releaseAll(bus, state, timeout: timeout) }
    }

    static func begin(_ configuration: FprintdSensor.Configuration) async throws(BiometricSensorError) -> FprintdClaim {
        let thread = DBusClientThread(address: configuration.systemBusAddress, name: FprintdBus.threadName)
        let state = Locked(FprintdClaimState())
        let timeout = configuration.timeoutMicroseconds
        let claimed = await thread.run { bus throws(DBusError) in
            let device = try FprintdBus.defaultDevice(bus, timeout: timeout)
            state.withLock { $0.devicePath = device }
            for rule in FprintdBus.matchRules(device: device) { try bus.addMatch(rule) }
            try FprintdBus.deviceCall("Claim", [configuration.username], device: device, bus, timeout: timeout)
            state.withLock { $0.claimed = true }
        }
        let claim = FprintdClaim(thread: thread, state: state, configuration: configuration)
        switch claimed {
        case .success:
            return claim
        case .failure(let failure):
            await claim.release()
            throw FprintdFailures.sensorError(failure)
        case nil:
            throw .unavailable(UnavailableReason(.hardwareError, "could not start a thread for the system bus"))
        }
    }

    func scan(hint: @escaping @Sendable (ScanHint) async -> Void) async throws(BiometricSensorError) -> ScanResult {
        let finger = configuration.finger
        let timeout = configuration.timeoutMicroseconds
        let state = state
        let cancelled = Locked(false)
        let (hints, hintSink) = AsyncStream<ScanHint>.makeStream()
        // Hints reach the caller in order while the thread keeps waiting.
        let forwarder = Task {
            for await scanHint in hints { await hint(scanHint) }
        }
        let result = await withTaskCancellationHandler {
            await thread.run { bus in
                defer { hintSink.finish() }
                return FprintdVerify.run(
                    bus,
                    state,
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
        case .success(.success(let scanResult))?: return scanResult
        case .success(.failure(let error))?: throw error
        case .failure(let failure)?: throw FprintdFailures.sensorError(failure)
        case nil: throw .unavailable(UnavailableReason(.hardwareError, "the fingerprint reader was released"))
        }
    }

    func release() async {
        let timeout = configuration.timeoutMicroseconds
        let state = state
        await thread.shutdown { bus in FprintdBus.releaseAll(bus, state, timeout: timeout) }
    }
}
