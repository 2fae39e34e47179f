#if os(Linux)
import CSesameTestProcess
import Foundation
import Glibc
@testable import SesameLinuxTesting
import Testing

@Suite("VirtualDeviceSocket")
struct VirtualDeviceSocketTests {
    /// A listener that takes one connection and closes it unread, as
    /// libfprint's virtual reader does while it finishes another.
    private static func listenAndDropOne(at path: String) throws -> Thread {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard listener >= 0, bound == 0, listen(listener, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
        let thread = Thread {
            let connection = accept(listener, nil, nil)
            close(connection)
            close(listener)
        }
        thread.start()
        return thread
    }

    @Test("a command the reader drops unread is tried again, raising no SIGPIPE (issue 44: the write that killed a run)")
    func droppedCommandRaisesNoSIGPIPE() throws {
        let path = "/tmp/sesame-vds-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(path) }
        _ = try Self.listenAndDropOne(at: path)
        // More than the socket holds, so the send is still going when the
        // reader closes: with `write` that is SIGPIPE whatever the timing.
        let command = String(repeating: "S", count: 8 << 20)
        let before = sesame_test_process_sigpipes_on_this_thread()
        let result = VirtualDeviceSocket.attempt(command, path: path)
        #expect(result == .tryAgain(EPIPE) || result == .tryAgain(ECONNRESET), "\(result)")
        #expect(sesame_test_process_sigpipes_on_this_thread() == before, "the send to the reader raised SIGPIPE")
    }
}
#endif
