#if os(Linux)
import Foundation
import Glibc
@testable import Sesame
import Testing

/// The one whole-write loop (issue 45): short writes are retried, a gone
/// reader is an error and, on a socket, never SIGPIPE (issue 44).
@Suite("Descriptor: whole writes, EPIPE not SIGPIPE, drains", .timeLimit(.minutes(1)))
struct DescriptorTests {
    @Test("a megabyte through a pipe (many short writes) arrives whole and in order")
    func writesWhole() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let bytes = (0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // Both ends block: each on a thread of its own, off the cooperative pool.
        async let reader = DedicatedThread.run(name: "descriptor-read") { () -> [UInt8] in
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count <= 0 { break }
                received += buffer[0..<count]
            }
            return received
        }
        let written = await DedicatedThread.run(name: "descriptor-write") { () -> Int32? in
            defer { close(writeEnd) }
            return Descriptor.writeAll(bytes, to: writeEnd)
        }
        #expect(written == .some(nil))
        #expect(await reader == bytes)
        close(readEnd)
    }

    @Test("a socket whose reader has gone is EPIPE for the call, and no SIGPIPE is raised (issue 44)")
    func goneReaderIsEPIPE() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        close(pair[1])
        // Blocked on this thread, a SIGPIPE the write raised would stay pending here
        // (Linux keeps a blocked signal even when the process ignores it).
        var pipeOnly = sigset_t(), previous = sigset_t(), pending = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        let failure = Descriptor.writeAll("hello", to: pair[0], isSocket: true)
        sigpending(&pending)
        let raised = sigismember(&pending, SIGPIPE) == 1
        if raised {
            var zero = timespec()
            _ = sigtimedwait(&pipeOnly, nil, &zero)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        close(pair[0])
        #expect(failure == EPIPE)
        #expect(!raised, "the write raised SIGPIPE")
    }

    @Test("drain empties a non-blocking pipe and returns")
    func drains() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        #expect(Descriptor.writeAll([UInt8](repeating: 1, count: 1000), to: ends[1]) == nil)
        Descriptor.drain(ends[0])
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) == -1 && errno == EAGAIN)
        close(ends[0])
        close(ends[1])
    }
}
#endif
