import Foundation
import Sesame

/// libfprint's virtual reader takes one command per connection, without a
/// newline (the bytes are used verbatim, so "SCAN a\n" is the id "a\n"),
/// and its socket exists only while the reader is claimed.
enum VirtualDeviceSocket {
    /// How long a listener that has just appeared is left alone. The reader
    /// starts listening while it is being opened, and until the open has
    /// finished it drops every scan, retry and error command it receives
    /// ("Could not process command"). GLib runs the open's completion at idle
    /// priority, after pending socket events, so commands sent at once are all
    /// lost. This shrinks that window; tests that need certainty still wait for
    /// a retry hint to come through (see the fprintd test support).
    static let settleTime: Duration = .milliseconds(250)

    static func send(_ command: String, to path: String, timeout: Duration, settle: Bool = true) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var listenerWasDown = false
        while !isListening(path) {
            listenerWasDown = true
            guard clock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        if listenerWasDown && settle { try await Task.sleep(for: settleTime) }
        while true {
            switch attempt(command, path: path) {
            case .sent:
                return
            case .tryAgain(let code) where clock.now < deadline:
                _ = code
                try await Task.sleep(for: .milliseconds(10))
            case .tryAgain(let code), .failed(let code):
                throw FprintdHarnessError(
                    "could not send '\(command)' to the virtual reader at \(path): \(String(cString: strerror(code)))"
                        + " (is the reader claimed?)")
            }
        }
    }

    enum Attempt: Equatable {
        case sent
        case tryAgain(Int32)
        case failed(Int32)
    }

    /// Connects and sends nothing: the reader reads end-of-file, which it
    /// ignores, and closes the connection.
    private static func isListening(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return connect(fd, path: path) == 0
    }

    private static func connect(_ fd: Int32, path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: pathBytes)
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    static func attempt(_ command: String, path: String) -> Attempt {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .failed(errno) }
        defer { close(fd) }
        if connect(fd, path: path) != 0 {
            let code = errno
            return code == ENOENT || code == ECONNREFUSED ? .tryAgain(code) : .failed(code)
        }
        // A socket: a reader that closed the connection is EPIPE for this
        // send; `write` would raise SIGPIPE, which kills the test process
        // (a SIGPIPE there ended every suite of the run at once).
        if let code = Descriptor.writeAll(command, to: fd, isSocket: true) {
            // The reader closed this connection before reading it (it
            // takes one connection at a time, and may still be finishing
            // the probe's): nothing was delivered, so try again.
            return code == EPIPE || code == ECONNRESET ? .tryAgain(code) : .failed(code)
        }
        shutdown(fd, Int32(SHUT_WR))
        // The reader closes the connection once it has taken the command.
        Descriptor.drain(fd)
        return .sent
    }
}
