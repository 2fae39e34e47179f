#if os(Linux)
import Glibc
import Sesame
@testable import SesameLinux
import Testing

/// The report socket against a plain client socket: reports cut at 64
/// bytes whatever the writes, a private directory, a stale socket replaced.
@Suite("HID report socket: 64-byte reports both ways, a private socket", .timeLimit(.minutes(1)))
struct HIDReportSocketServerTests {
    private static func temporaryDirectory() -> String {
        var template = Array("/tmp/sesame-hid-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    private static func connect(_ path: String) -> Int32 {
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(client, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return status == 0 ? client : -1
    }

    /// Reads exactly `count` bytes (or up to the end) on a thread of its
    /// own, so a blocking read holds no thread of the cooperative pool.
    private static func read(_ client: Int32, count: Int) async -> [UInt8] {
        await DedicatedThread.run(name: "hid-test-read") {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: count)
            while bytes.count < count {
                let got = Glibc.read(client, &buffer, count - bytes.count)
                if got <= 0 { break }
                bytes += buffer[0..<got]
            }
            return bytes
        } ?? []
    }

    private static func report(_ seed: UInt8) -> [UInt8] { (0..<64).map { UInt8(truncatingIfNeeded: Int(seed) &+ $0) } }

    @Test("P5: two reports in one write and one report in two writes come back through an echo handler, 64 bytes each")
    func echo() async throws {
        let path = Self.temporaryDirectory() + "/hid/reports.sock"
        let server = try HIDReportSocketServer(path: path)
        let serving = Task { try await server.serve { connection in
            for await report in connection.reports { connection.send(report) }
        } }
        let client = Self.connect(path)
        #expect(client >= 0)
        defer { Glibc.close(client) }
        let (first, second, third) = (Self.report(1), Self.report(2), Self.report(3))
        let both = first + second
        #expect(write(client, both, both.count) == 128)
        #expect(await Self.read(client, count: 128) == both)
        #expect(write(client, Array(third.prefix(10)), 10) == 10)
        #expect(write(client, Array(third.dropFirst(10)), 54) == 54)
        #expect(await Self.read(client, count: 64) == third)

        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(lstat(PrivateFile.parentDirectory(of: path), &info) == 0 && info.st_mode & 0o777 == 0o700)
        server.close()
        try await serving.value
        #expect(lstat(path, &info) != 0, "the socket is removed when the server closes")
    }

    @Test("P3: the connection names its client's executable and pid, for the owner's passkey dialogs (issue 44)")
    func clientIsNamed() async throws {
        let path = Self.temporaryDirectory() + "/reports.sock"
        let server = try HIDReportSocketServer(path: path)
        let (clients, clientsInput) = AsyncStream.makeStream(of: String?.self)
        let serving = Task { try await server.serve { connection in
            clientsInput.yield(connection.client)
            for await _ in connection.reports {}
        } }
        // The test process is the client: the server must name this very executable.
        let client = Self.connect(path)
        #expect(client >= 0)
        var iterator = clients.makeAsyncIterator()
        let named = try #require(await iterator.next() ?? nil)
        Glibc.close(client)
        let executable = try #require(ProcessExecutable.path(of: getpid()))
        #expect(named == "`\(executable)` (pid \(getpid()))")
        server.close()
        try await serving.value
    }

    @Test("P5: a partial report then the client's close ends the connection, unanswered")
    func partialReport() async throws {
        let path = Self.temporaryDirectory() + "/reports.sock"
        let server = try HIDReportSocketServer(path: path)
        let (ended, endedInput) = AsyncStream.makeStream(of: Int.self)
        let serving = Task { try await server.serve { connection in
            var count = 0
            for await _ in connection.reports { count += 1 }
            endedInput.yield(count)
        } }
        let client = Self.connect(path)
        let bytes = Self.report(9) + [1, 2, 3]
        #expect(write(client, bytes, bytes.count) == 67)
        Glibc.close(client)
        var iterator = ended.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        server.close()
        try await serving.value
    }

    @Test("P5: a directory others can use is refused; a stale socket is replaced, a live one is not")
    func socketPath() throws {
        let directory = Self.temporaryDirectory()
        chmod(directory, 0o755)
        #expect { try HIDReportSocketServer(path: directory + "/reports.sock") } throws: { error in
            String(describing: error).contains(directory)
        }
        chmod(directory, 0o700)

        // A socket bound and closed without a listener: what a killed server leaves.
        let path = directory + "/reports.sock"
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        Glibc.close(stale)
        let server = try HIDReportSocketServer(path: path)
        #expect { try HIDReportSocketServer(path: path) } throws: { String(describing: $0).contains("already listening") }
        server.close()

        let file = directory + "/file"
        let created = creat(file, 0o600)
        #expect(created >= 0)
        Glibc.close(created)
        #expect { try HIDReportSocketServer(path: file) } throws: { String(describing: $0).contains("not a socket") }
    }
}
#endif
