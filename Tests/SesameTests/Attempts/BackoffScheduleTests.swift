import Sesame
import Testing

@Suite("SPEC E3: the back-off schedule")
struct BackoffScheduleTests {
    @Test("SPEC E3: iOS's schedule: free until the 4th failure, then 1 min, 5 min, 15 min, 15 min, 1 h", arguments: [
        (0, 0.0), (1, 0.0), (4, 0.0), (5, 60.0), (6, 300.0), (7, 900.0), (8, 900.0), (9, 3600.0), (10, 3600.0), (50, 3600.0),
    ])
    func standard(failures: Int, seconds: Double) {
        #expect(BackoffSchedule.standard.delay(afterFailures: failures) == seconds)
    }

    @Test("SPEC E3: a custom schedule repeats its last delay; negative delays count as none")
    func custom() {
        let schedule = BackoffSchedule(delays: [-1, 2])
        #expect(schedule.delay(afterFailures: 1) == 0)
        #expect(schedule.delay(afterFailures: 2) == 2)
        #expect(schedule.delay(afterFailures: 7) == 2)
        #expect(BackoffSchedule(delays: []).delay(afterFailures: 3) == 0)
    }
}
