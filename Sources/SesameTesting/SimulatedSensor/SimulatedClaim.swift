import Sesame

/// One claim of a ``SimulatedSensor``.
final class SimulatedClaim: BiometricClaim {
    private let sensor: SimulatedSensor
    private let released = Locked(false)

    init(sensor: SimulatedSensor) {
        self.sensor = sensor
    }

    func scan(hint: @escaping @Sendable (ScanHint) async -> Void) async throws(BiometricSensorError) -> ScanResult {
        guard !released.withLock({ $0 }) else { throw .cancelled }
        sensor.state.withLock { $0.scansStarted += 1 }
        while true {
            guard let event = await sensor.scans.take() else {
                sensor.state.withLock { $0.scansCancelled += 1 }
                throw .cancelled
            }
            switch event {
            case .unplugged:
                throw .unavailable(UnavailableReason(.disconnected, "The sensor was disconnected"))
            case .scripted(let scripted):
                switch scripted {
                case .match: return .match
                case .noMatch: return .noMatch
                case .hint(let scanHint): await hint(scanHint)
                case .disconnect: throw .unavailable(UnavailableReason(.disconnected, "The sensor was disconnected"))
                case .hardwareError(let text): throw .unavailable(UnavailableReason(.hardwareError, text))
                case .userCancel: throw .userCancel
                case .userFallback: throw .userFallback
                case .systemCancel: throw .systemCancel
                }
            }
        }
    }

    func release() async {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        if first { sensor.state.withLock { $0.activeClaims -= 1 } }
    }
}
