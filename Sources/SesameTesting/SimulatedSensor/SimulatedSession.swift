import Sesame

/// One claim of a ``SimulatedSensor``.
final class SimulatedSession: BiometricSession {
    private let sensor: SimulatedSensor
    private let ended = Locked(false)

    init(sensor: SimulatedSensor) {
        self.sensor = sensor
    }

    func scan(hint: @escaping @Sendable (ScanHint) async -> Void) async throws(BiometricSensorError) -> ScanResult {
        guard !ended.withLock({ $0 }) else { throw .cancelled }
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

    func end() async {
        let first = ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
        if first { sensor.state.withLock { $0.activeSessions -= 1 } }
    }
}
