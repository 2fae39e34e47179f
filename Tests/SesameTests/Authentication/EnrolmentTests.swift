import Sesame
import SesameTesting
import Testing

@Suite("SPEC A7-A8: biometry type and domain state")
struct EnrolmentTests {
    @Test("SPEC A7: biometryType is none until canEvaluate, then the sensor's type",
          arguments: [BiometryType.fingerprint, .face])
    func biometryType(type: BiometryType) async {
        let fixture = TestMachine(sensor: SimulatedSensor(biometryType: type))
        let context = fixture.context()
        #expect(context.biometryType == .none)
        #expect(await fixture.readiness(.biometrics, on: context) == nil)
        #expect(context.biometryType == type)
    }

    @Test("SPEC A7: biometryType is known after an evaluation too, and is none without a sensor")
    func biometryTypeAfterEvaluate() async {
        let fixture = TestMachine()
        let context = fixture.context()
        fixture.sensor.present(.match)
        #expect(await fixture.outcome(.biometrics, on: context) == nil)
        #expect(context.biometryType == .fingerprint)

        let bare = TestMachine(withSensor: false)
        let bareContext = bare.context()
        _ = await bare.readiness(.biometrics, on: bareContext)
        #expect(bareContext.biometryType == .none)
    }

    @Test("SPEC A8: domainState is nil before, available after canEvaluate, and stable while enrolment is unchanged")
    func domainStateAvailable() async throws {
        let fixture = TestMachine()
        let first = fixture.context()
        #expect(first.domainState == nil)
        _ = await fixture.readiness(.biometrics, on: first)
        let second = fixture.context()
        fixture.sensor.present(.match)
        _ = await fixture.outcome(.biometrics, on: second)
        let recorded = try #require(first.domainState)
        #expect(second.domainState == recorded)
        #expect(!recorded.bytes.isEmpty)
    }

    @Test("SPEC A8: domainState changes when a biometric is added, removed or re-enrolled",
          arguments: ["add", "remove", "reenrol"])
    func domainStateChanges(change: String) async throws {
        let sensor = SimulatedSensor(enrolled: ["right-index-finger", "left-thumb"])
        let fixture = TestMachine(sensor: sensor)
        let before = fixture.context()
        _ = await fixture.readiness(.biometrics, on: before)
        switch change {
        case "add": sensor.enrol("right-thumb")
        case "remove": sensor.unenrol("left-thumb")
        default:
            sensor.unenrol("left-thumb")
            sensor.enrol("left-thumb")
        }
        let after = fixture.context()
        _ = await fixture.readiness(.biometrics, on: after)
        let old = try #require(before.domainState)
        let new = try #require(after.domainState)
        #expect(old != new)
    }
}
