/// One attempt record (SPEC E3, E5): the wrong entries in a row, the delay
/// they started, and a fingerprint of the last wrong entry.
///
/// Every ledger keeps exactly these fields, each in its own frozen encoding
/// (a vault row, a field of the app passcode record, fields of the
/// ``AttemptRecord``).
package struct AttemptCounter: Sendable, Hashable {
    /// Wrong attempts settled since the last right one (a check whose process
    /// died counts as wrong).
    var failures: Int
    /// The back-off running after the last counted attempt, if any.
    var delay: AttemptRecord.Delay?
    /// A keyed fingerprint of the last wrong entry, so that typing the same
    /// wrong passcode again counts once; `nil` where the check has none.
    var lastWrongEntry: [UInt8]?
    /// Attempts counted and being checked right now: an attempt is counted
    /// before it is checked.
    var inFlight: [AttemptInFlight]

    init(failures: Int = 0, delay: AttemptRecord.Delay? = nil, lastWrongEntry: [UInt8]? = nil, inFlight: [AttemptInFlight] = []) {
        self.failures = failures
        self.delay = delay
        self.lastWrongEntry = lastWrongEntry
        self.inFlight = inFlight
    }
}
