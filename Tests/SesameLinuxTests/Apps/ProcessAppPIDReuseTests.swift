import Foundation
import Sesame
@testable import SesameLinux
import SesameLinuxTesting
import Testing

/// Why the pid reuse tests cannot run here, if they cannot.
let pidReuseSkipReason: Comment = "writes /proc/sys/kernel/ns_last_pid to hand a dead client's pid to another program: run as root (CI does)"

/// A client's pid given to another program after the client left, for
/// real (the kernel is told the next pid): the other program is never
/// taken for the client (SPEC D13).
@Suite(
    "D13: a reused pid never lends its new process's identity to a client",
    .serialized,
    .enabled(if: TestProcess.canChoosePID || TestProcess.inCI, pidReuseSkipReason)
)
struct ProcessAppPIDReuseTests {
    @Test("D13: a new process of another program, given a dead client's pid after the client connected, is no app")
    func reusedPID() throws {
        let client = try TestProcess.spawn("/usr/bin/true", [])
        client.wait()
        // The client was connected by now; what starts later cannot be it.
        let connectedBy = TestProcess.bootNanoseconds()
        // Past the clock tick of connectedBy, the grain of a start time.
        usleep(50_000)
        let other = try #require(try TestProcess.spawn(as: client.pid, "/usr/bin/sleep", ["30"]),
                                 "pid \(client.pid) was taken by another process first")
        defer { other.stop() }
        #expect(ProcessApp.identify(pid: client.pid, connectedBy: connectedBy) == nil)
        // The same pid read with a time after the new start is that process:
        // the nil above is the start time's doing, not an unreadable process.
        #expect(ProcessApp.identify(pid: client.pid, connectedBy: TestProcess.bootNanoseconds())
            == TestProcess.hostIdentity(executable: "/usr/bin/sleep"))
    }

    /// The test server: records each Echo's argument with the caller's pid and app.
    static func startServer(on bus: PrivateSessionBus, calls: Locked<[(tag: String, pid: Int32, app: AppIdentity?)]>) async throws -> DBusServer {
        try await DBusServer.start(address: bus.address, prefixes: ["/test"], handler: { request in
            calls.withLock { $0.append((request.arguments.first?.stringValue ?? "", request.senderPID, request.senderApp)) }
            return DBusReply(request.arguments)
        })
    }

    @Test("D13: through the D-Bus server: a caller's request carries its app, read at its first call",
          .enabled(if: dbusServerTestsMissing.isEmpty, "needs dbus-daemon, busctl and python3-jeepney: \(dbusServerTestsMissing.joined(separator: ", "))"))
    func serverNamesCaller() async throws {
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let calls = Locked<[(tag: String, pid: Int32, app: AppIdentity?)]>([])
        let server = try await Self.startServer(on: bus, calls: calls)
        let script = """
            import sys
            from jeepney import DBusAddress, new_method_call
            from jeepney.io.blocking import open_dbus_connection
            conn = open_dbus_connection(bus='SESSION')
            for tag in ('first', 'second'):
                conn.send_and_get_reply(new_method_call(DBusAddress('/test', bus_name=sys.argv[1], interface='org.example.Test'), 'Echo', 's', (tag,)))
            """
        let result = try await bus.run(TestPython.path, ["-c", script, server.uniqueName])
        await server.stop()
        #expect(result.status == 0, "\(result.output)")
        let recorded = calls.withLock { $0 }
        #expect(recorded.map(\.tag) == ["first", "second"])
        let python = TestProcess.hostIdentity(executable: TestPython.path)
        #expect(recorded.allSatisfy { $0.app == python }, "\(recorded.map { String(describing: $0.app) })")
    }

    @Test("D13: end to end: a client forks, leaves the connection to its child and exits, another program gets its pid; the child's call carries no app",
          .enabled(if: dbusServerTestsMissing.isEmpty, "needs dbus-daemon, busctl and python3-jeepney: \(dbusServerTestsMissing.joined(separator: ", "))"))
    func serverReusedPID() async throws {
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let calls = Locked<[(tag: String, pid: Int32, app: AppIdentity?)]>([])
        let server = try await Self.startServer(on: bus, calls: calls)
        let work = "\(bus.directory)/fork-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let script = """
            import os, sys, time
            from jeepney import DBusAddress, new_method_call
            from jeepney.io.blocking import open_dbus_connection
            work = sys.argv[2]
            conn = open_dbus_connection(bus='SESSION')
            with open(work + '/parent.tmp', 'w') as f:
                f.write('%d %s' % (os.getpid(), conn.unique_name))
            os.rename(work + '/parent.tmp', work + '/parent')
            if os.fork():
                os._exit(0)
            for _ in range(3000):
                if os.path.exists(work + '/go'):
                    break
                time.sleep(0.01)
            reply = conn.send_and_get_reply(new_method_call(DBusAddress('/test', bus_name=sys.argv[1], interface='org.example.Test'), 'Echo', 's', ('child',)), timeout=10)
            with open(work + '/child.tmp', 'w') as f:
                f.write(reply.header.message_type.name)
            os.rename(work + '/child.tmp', work + '/child')
            """
        let parent = try TestProcess.spawn(TestPython.path, ["-c", script, server.uniqueName, work], environment: bus.environment())
        parent.wait()
        let announced = try String(contentsOfFile: "\(work)/parent", encoding: .utf8).split(separator: " ")
        #expect(announced.first.flatMap { Int32($0) } == parent.pid)
        // A call queued behind the parent's NameOwnerChanged: once answered,
        // the server has noted when the parent's connection appeared.
        let sync = try await bus.run("/usr/bin/busctl", ["--address=\(bus.address)", "call", server.uniqueName, "/test",
                                                        "org.example.Test", "Echo", "s", "sync"])
        #expect(sync.status == 0, "\(sync.output)")
        usleep(50_000)
        let other = try #require(try TestProcess.spawn(as: parent.pid, "/usr/bin/sleep", ["30"]),
                                 "pid \(parent.pid) was taken by another process first")
        defer { other.stop() }
        _ = FileManager.default.createFile(atPath: "\(work)/go", contents: Data())
        var answered = false
        for _ in 0..<3000 where !answered {
            answered = FileManager.default.fileExists(atPath: "\(work)/child")
            if !answered { try await Task.sleep(for: .milliseconds(10)) }
        }
        await server.stop()
        #expect(answered, "the child never got its reply")
        #expect((try? String(contentsOfFile: "\(work)/child", encoding: .utf8)) == "method_return")
        let child = try #require(calls.withLock { $0 }.first { $0.tag == "child" })
        // The bus still names the parent's pid, which is now sleep's.
        #expect(child.pid == parent.pid)
        #expect(child.app == nil, "\(String(describing: child.app))")
        #expect(child.app != TestProcess.hostIdentity(executable: "/usr/bin/sleep"))
    }
}
