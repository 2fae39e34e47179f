@testable import SesameLinux
import Testing

/// The server's table of when connections appeared (SPEC D13: the time a
/// caller's process must have started by).
@Suite("D13: the D-Bus server's connection times are bounded and fail towards an unknown app")
struct ConnectionTimesTests {
    @Test("D13: an announced name is judged by its announcement, others by the server's own connect time")
    func times() {
        var times = ConnectionTimes()
        times.connectedAt = 100
        times.announce(":1.5", at: 500)
        #expect(times.connectedBy(":1.5") == 500)
        #expect(times.connectedBy(":1.6") == 100)
        times.forget(":1.5")
        #expect(times.connectedBy(":1.5") == 100)
    }

    @Test("D13: past the bound a name is dropped, and a dropped name gets the earlier time (stricter), never a later one")
    func bounded() {
        var times = ConnectionTimes()
        times.connectedAt = 100
        for number in 0..<(ConnectionTimes.maximumNames + 50) {
            times.announce(":1.\(number)", at: 1000 + UInt64(number))
        }
        #expect(times.count == ConnectionTimes.maximumNames)
        for number in 0..<(ConnectionTimes.maximumNames + 50) {
            let time = times.connectedBy(":1.\(number)")
            #expect(time == 100 || time == 1000 + UInt64(number))
        }
        #expect(times.connectedBy(":1.\(ConnectionTimes.maximumNames + 49)") == 1000 + UInt64(ConnectionTimes.maximumNames + 49))
    }
}
