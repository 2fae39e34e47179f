#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CSesameBootClock

/// Both clocks read at one moment: the wall clock (which a process can set
/// or fake) and the kernel's boot clock (which it cannot).
struct AttemptReading: Sendable {
    let wall: Date
    let boot: BootInstant?

    init(_ clock: any AuthenticationClock) {
        wall = clock.now()
        boot = clock.bootInstant()
    }

    /// This process, for attempts in flight.
    static var processID: Int32 { csesame_process_id() }
}

/// Where a delay stands at one reading.
enum DelayState: Sendable, Equatable {
    case over
    /// `clockDisagrees`: the caller's wall clock is not where the ledger's
    /// record and the boot clock put it.
    case running(remaining: TimeInterval, clockDisagrees: Bool)
}

extension AttemptRecord.Delay {
    /// How far the wall clock may drift from the ledger (NTP steps, a
    /// suspend) before an attempt is told its clock disagrees.
    static let clockTolerance: TimeInterval = 300

    /// Where the delay stands, measured on the boot clock (SPEC E3). Within
    /// one boot the boot clock alone says how much has passed; after a
    /// reboot only the time since this boot began counts; a delay from a
    /// record without boot-clock times restarts in full. No wall-clock claim
    /// ever shortens a delay. Rebases the delay onto this boot as it goes, so
    /// a ledger stores the result.
    mutating func measure(at reading: AttemptReading) -> DelayState {
        guard let now = reading.boot else {
            // No boot clock here: a delay timed on one cannot be measured (fail
            // closed); an old one runs on the wall clock, set back = restarted.
            if startBoot != nil { return .running(remaining: duration, clockDisagrees: false) }
            rebase(at: reading.wall)
            guard let end = end(at: reading.wall) else { return .over }
            return .running(remaining: end.timeIntervalSince(reading.wall), clockDisagrees: false)
        }
        guard let began = startBoot, began.bootID == now.bootID, now.uptime >= began.uptime else {
            if let began = startBoot, began.bootID != now.bootID {
                // Rebooted: the time since this boot began certainly passed.
                start = reading.wall.addingTimeInterval(-now.uptime)
                startBoot = BootInstant(bootID: now.bootID, uptime: 0)
            } else {
                start = reading.wall
                startBoot = now
            }
            return measure(at: reading)
        }
        let elapsed = now.uptime - began.uptime
        let remaining = duration - elapsed
        guard remaining > 0 else { return .over }
        let expectedWall = start.addingTimeInterval(elapsed)
        return .running(remaining: remaining, clockDisagrees: abs(reading.wall.timeIntervalSince(expectedWall)) > Self.clockTolerance)
    }
}

extension AttemptInFlight {
    /// Whether the attempt will never settle itself: its process is gone
    /// (`kill -9` mid-check), the machine rebooted since, or it has been in
    /// flight longer than any check takes.
    func isAbandoned(at reading: AttemptReading, staleAfter: TimeInterval) -> Bool {
        if let began = startedBoot, let now = reading.boot {
            if began.bootID != now.bootID || now.uptime < began.uptime || now.uptime - began.uptime > staleAfter { return true }
        } else if abs(reading.wall.timeIntervalSince(started)) > staleAfter {
            return true
        }
        return csesame_process_exists(processID) == 0
    }
}
