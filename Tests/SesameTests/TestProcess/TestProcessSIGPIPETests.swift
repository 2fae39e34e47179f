#if os(Linux)
import CSesameTestProcess
import Glibc
import Testing

/// The test binary itself: a write to a reader that has gone, from any test,
/// must fail that write, not kill every suite (issue 44: one run ended 15 s
/// in with "signal code 13").
@Suite("The test process survives SIGPIPE")
struct TestProcessSIGPIPETests {
    @Test("a SIGPIPE handler is in place from the binary's load, before any test ran")
    func handlerFromLoad() {
        #expect(sesame_test_process_survives_sigpipe() == 1)
        var disposition = sigaction()
        sigaction(SIGPIPE, nil, &disposition)
        let handler = unsafeBitCast(disposition.__sigaction_handler.sa_handler, to: Int.self)
        #expect(handler != unsafeBitCast(SIG_DFL, to: Int.self), "the default disposition kills the process")
        #expect(handler != unsafeBitCast(SIG_IGN, to: Int.self), "ignored would be inherited by every program the tests start")
    }

    @Test("a write to a pipe whose reader closed fails with EPIPE, and the process goes on")
    func writeToClosedPipe() {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let before = sesame_test_process_sigpipes_on_this_thread()
        var byte: UInt8 = 1
        let written = write(ends[1], &byte, 1)
        let code = errno
        #expect(written == -1 && code == EPIPE)
        #expect(sesame_test_process_sigpipes_on_this_thread() == before + 1, "the kernel raised it, and the handler counted it")
    }
}
#endif
