#if os(Linux)
import CSesameTestProcess
import Foundation
import Glibc
@testable import SesameLinuxTesting
import Testing

@Suite("PwdfileAccount")
struct PwdfileAccountTests {
    @Test("a user:hash line that openssl made, mode 0600")
    func writesTheLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pwdfile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { unlink(path) }
        try PwdfileAccount.write(user: "owner", password: "correct horse", to: path)
        let line = try String(contentsOfFile: path, encoding: .utf8)
        #expect(line.hasPrefix("owner:$6$") && line.hasSuffix("\n"))
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }

    @Test("a hasher that exits without reading the password fails with an error, raising no SIGPIPE (issue 44)")
    func hasherThatDoesNotRead() {
        // More than a pipe holds, so the writer is still writing when the
        // reader exits: with a pipe that is SIGPIPE whatever the timing.
        let password = String(repeating: "x", count: 1 << 20)
        let before = sesame_test_process_sigpipes_on_this_thread()
        #expect(throws: PwdfileAccountError.self) { try PwdfileAccount.sha512Crypt(password, command: ["true"]) }
        #expect(sesame_test_process_sigpipes_on_this_thread() == before, "the write to the hasher raised SIGPIPE")
    }
}
#endif
