#if os(Linux)
import Glibc
import Sesame

/// A non-blocking pipe that a thread sleeping in `poll` watches beside its
/// socket or device, so that another thread can wake it (to send, or to
/// stop). Its descriptors close with the last reference, never while a
/// thread may still write to them.
final class WakePipe: Sendable {
    /// The end the loop polls.
    let readEnd: Int32
    private let writeEnd: Int32

    init?() {
        var ends: [Int32] = [-1, -1]
        // pipe2 is hidden by Glibc's module; flags are set just after.
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }

    /// Wakes the loop (a full pipe is already a wake-up).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe once the loop woke.
    func drain() {
        Descriptor.drain(readEnd)
    }

    /// Sleeps until `descriptor` has one of `events` or the pipe is woken.
    ///
    /// - Returns: The descriptor's returned events (0 when only woken),
    ///   or `nil` when `poll` failed other than by a signal or the
    ///   descriptor is not open.
    func wait(for descriptor: Int32, events: Int16) -> Int16? {
        var fds = [pollfd(fd: descriptor, events: events, revents: 0), pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        while poll(&fds, 2, -1) < 0 {
            guard errno == EINTR else { return nil }
        }
        if fds[1].revents != 0 { drain() }
        // A descriptor that is not open would wake every poll: stop instead of spinning.
        return fds[0].revents & Int16(POLLNVAL) != 0 ? nil : fds[0].revents
    }
}
#endif
