import Sesame
import SesameTesting

/// A fixture plus the feature-protection facade and its stores.
struct ProtectionFixture {
    let machine: TestMachine
    let store = InMemoryAppRecordStore()
    let keys = InMemoryDeviceKeyStore()
    let verifications = VerificationLog()

    init(machine: TestMachine = TestMachine()) {
        self.machine = machine
    }

    /// The facade; `verifies` is what the app's own re-login check answers.
    func protection(appIdentifier: String = "com.example.money", verifies: Bool? = true) -> FeatureProtection {
        let log = verifications
        let verification: OwnerVerification? = verifies.map { answer in
            .custom { reason in
                log.record(reason)
                return answer
            }
        }
        return FeatureProtection(appIdentifier: appIdentifier, authenticators: machine.authenticators,
                                 store: store, deviceKeys: keys, ownerVerification: verification)
    }

    var sensor: SimulatedSensor { machine.sensor }
    var presenter: RecordingPresenter { machine.presenter }
}

/// Counts calls to the app's own verification hook.
final class VerificationLog: Sendable {
    private let reasons = Locked<[String]>([])
    func record(_ reason: String) { reasons.withLock { $0.append(reason) } }
    var count: Int { reasons.withLock { $0.count } }
}

func outcome(_ body: () async throws(FeatureProtectionError) -> Void) async -> FeatureProtectionError? {
    do throws(FeatureProtectionError) {
        try await body()
        return nil
    } catch {
        return error
    }
}

extension FeatureProtectionError {
    var name: String {
        switch self {
        case .unavailable: "unavailable"
        case .authenticationFailed(let error): "authenticationFailed(\(error.identifier))"
        case .enrolmentChanged: "enrolmentChanged"
        case .recordTampered: "recordTampered"
        case .storage: "storage"
        }
    }
}
