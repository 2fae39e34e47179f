import Foundation
import Sesame
@testable import SesameLinux
import SesameLinuxTesting
import SesameTesting
import Testing

/// What the server's tests run, by Debian package; empty when they can run.
let dbusServerTestsMissing: [String] = PrivateSessionBus.missingComponents
    + ["/usr/bin/busctl", "/usr/bin/setpriv", TestPython.path].filter { !FileManager.default.isExecutableFile(atPath: $0) }
    + (FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/jeepney") ? [] : ["python3-jeepney"])

/// The sd-bus server against a real private dbus-daemon, called by clients
/// that share none of its code: systemd's busctl and python's jeepney.
@Suite(
    "D-Bus server: calls, properties, signals, the peer's uid",
    .serialized,
    .enabled(if: dbusServerTestsMissing.isEmpty, "needs dbus-daemon, busctl, setpriv and python3-jeepney; missing: \(dbusServerTestsMissing.joined(separator: ", "))")
)
struct DBusServerTests {
    /// Answers Echo with its arguments, Properties.Get with a string, and
    /// Shout by sending a signal after the reply.
    static func start(on bus: PrivateSessionBus, vanished: Locked<[String]> = Locked([]), servedUID: UInt32 = geteuid()) async throws -> DBusServer {
        let box = Locked<DBusServer?>(nil)
        let server = try await DBusServer.start(
            address: bus.address, prefixes: ["/test"], servedUID: servedUID,
            handler: { request in
                switch (request.interface, request.member) {
                case ("org.example.Test", "Echo"):
                    return DBusReply(request.arguments)
                case ("org.freedesktop.DBus.Properties", "Get"):
                    return DBusReply([.variant(.string("value of \(request.arguments.last?.stringValue ?? "?")"))])
                case ("org.example.Test", "Shout"):
                    let text = request.arguments.first?.stringValue ?? ""
                    return DBusReply([], afterSending: {
                        box.withLock { $0 }?.emitSignal(path: "/test", interface: "org.example.Test", member: "Shouted",
                                                        arguments: [.string(text.uppercased()), .objectPaths(["/test/a"])])
                    })
                default:
                    return DBusReply(error: .unknownMethod("no \(request.member)"))
                }
            },
            peerVanished: { name in vanished.withLock { $0.append(name) } })
        box.withLock { $0 = server }
        return server
    }

    @Test("SPEC D10: a method call from busctl gets its arguments back, of the types sent")
    func methodCall() async throws {
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let server = try await Self.start(on: bus)
        let result = try await bus.run("/usr/bin/busctl", ["--address=\(bus.address)", "call", server.uniqueName, "/test/x",
                                                          "org.example.Test", "Echo", "sia{ss}ay", "hello", "42", "1", "k", "v", "3", "1", "2", "3"])
        await server.stop()
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == #"sia{ss}ay "hello" 42 1 "k" "v" 3 1 2 3"#)
    }

    @Test("SPEC D10: a property read with busctl get-property is answered through the handler")
    func propertyRead() async throws {
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let server = try await Self.start(on: bus)
        let result = try await bus.run("/usr/bin/busctl", ["--address=\(bus.address)", "get-property", server.uniqueName, "/test",
                                                          "org.example.Test", "Colour"])
        await server.stop()
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == #"s "value of Colour""#)
    }

    @Test("SPEC D10: a signal sent after a reply reaches a subscribed client (jeepney)")
    func signalReceived() async throws {
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let server = try await Self.start(on: bus)
        let script = """
            import sys
            from jeepney import DBusAddress, new_method_call, MatchRule
            from jeepney.io.blocking import open_dbus_connection, Proxy
            from jeepney.bus_messages import message_bus
            conn = open_dbus_connection(bus='SESSION')
            rule = MatchRule(type='signal', interface='org.example.Test', member='Shouted')
            Proxy(message_bus, conn).AddMatch(rule)
            with conn.filter(rule) as signals:
                reply = conn.send_and_get_reply(new_method_call(DBusAddress('/test', bus_name=sys.argv[1], interface='org.example.Test'), 'Shout', 's', ('quiet',)))
                print('reply', reply.header.message_type.name)
                signal = conn.recv_until_filtered(signals, timeout=10)
                print('signal', signal.header.fields[3] if 3 in signal.header.fields else '', signal.body)
            """
        let result = try await bus.run(TestPython.path, ["-c", script, server.uniqueName])
        await server.stop()
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("reply method_return"), "\(result.output)")
        #expect(result.output.contains("signal Shouted ('QUIET', ['/test/a'])"), "\(result.output)")
    }

    @Test("SPEC D10: a caller of another uid is refused with AccessDenied before its call is read")
    func otherUIDRefused() async throws {
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let server = try await Self.start(on: bus)
        // jeepney shows the error's name and message, so the refusal is seen to be ours, not the bus policy's.
        let script = """
            import sys
            from jeepney import DBusAddress, new_method_call
            from jeepney.io.blocking import open_dbus_connection
            conn = open_dbus_connection(bus='SESSION')
            reply = conn.send_and_get_reply(new_method_call(DBusAddress('/test', bus_name=sys.argv[1], interface='org.example.Test'), 'Echo', 's', ('hi',)))
            print(reply.header.message_type.name, reply.header.fields.get(4), reply.body)
            """
        let refused = try await bus.run("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", TestPython.path, "-c", script, server.uniqueName])
        let allowed = try await bus.run(TestPython.path, ["-c", script, server.uniqueName])
        await server.stop()
        #expect(refused.status == 0, "\(refused.output)")
        #expect(refused.output.contains("error org.freedesktop.DBus.Error.AccessDenied ('only uid \(geteuid()) is served; the caller is uid 65534',)"), "\(refused.output)")
        #expect(allowed.output.contains("method_return None ('hi',)"), "\(allowed.output)")
    }

    @Test("SPEC D10: a call to a path outside the prefix is answered UnknownMethod at once, as GDBus answers, not left to time out")
    func pathOutsidePrefix() async throws {
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let server = try await Self.start(on: bus)
        // secretstorage's Item('/not/existing/path') is this call; 5 s bounds the wait a lost reply would be.
        let script = """
            import sys
            from jeepney import DBusAddress, new_method_call
            from jeepney.io.blocking import open_dbus_connection
            conn = open_dbus_connection(bus='SESSION')
            address = DBusAddress('/not/existing/path', bus_name=sys.argv[1], interface='org.freedesktop.DBus.Properties')
            reply = conn.send_and_get_reply(new_method_call(address, 'Get', 'ss', ('org.example.Test', 'Colour')), timeout=5)
            print(reply.header.message_type.name, reply.header.fields.get(4), reply.body)
            """
        let result = try await bus.run(TestPython.path, ["-c", script, server.uniqueName])
        // The prefix is still served after the refusal.
        let inside = try await bus.run("/usr/bin/busctl", ["--address=\(bus.address)", "get-property", server.uniqueName, "/test",
                                                          "org.example.Test", "Colour"])
        await server.stop()
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(
            "error org.freedesktop.DBus.Error.UnknownMethod ('Object does not exist at path \u{201C}/not/existing/path\u{201D}',)"),
            "\(result.output)")
        #expect(inside.output.contains("value of Colour"), "\(inside.output)")
    }

    @Test("SPEC D10: a client leaving the bus is reported by its unique name")
    func peerVanishes() async throws {
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let vanished = Locked<[String]>([])
        let server = try await Self.start(on: bus, vanished: vanished)
        let script = """
            import sys
            from jeepney import DBusAddress, new_method_call
            from jeepney.io.blocking import open_dbus_connection
            conn = open_dbus_connection(bus='SESSION')
            conn.send_and_get_reply(new_method_call(DBusAddress('/test', bus_name=sys.argv[1], interface='org.example.Test'), 'Echo', 's', ('x',)))
            print(conn.unique_name)
            """
        let result = try await bus.run(TestPython.path, ["-c", script, server.uniqueName])
        let name = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        for _ in 0..<3000 where !vanished.withLock({ $0.contains(name) }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        await server.stop()
        #expect(result.status == 0, "\(result.output)")
        #expect(name.hasPrefix(":"))
        #expect(vanished.withLock { $0.contains(name) })
    }

    @Test("SPEC D10: a well-known name owned by another connection is refused, naming that owner")
    func nameOwned() async throws {
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let first = try await Self.start(on: bus)
        let second = try await Self.start(on: bus)
        try await first.requestName("org.example.Owned", replace: false)
        do {
            try await second.requestName("org.example.Owned", replace: false)
            Issue.record("the second request should have failed")
        } catch {
            guard case .nameOwned(let name, let owner, let pid, _, let replacing) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(name == "org.example.Owned")
            #expect(owner == first.uniqueName)
            #expect(pid == UInt32(getpid()))
            #expect(!replacing && error.description.contains("--replace"))
        }
        // The first allows replacement, so --replace takes it.
        try await second.requestName("org.example.Owned", replace: true)
        await first.stop()
        await second.stop()
    }

    @Test("SPEC D10: refused after --replace, the error names the holder and the way that works (setup, or stopping it), never --replace again")
    func replaceRefusedMessage() {
        let refused = DBusServerError.nameOwned(name: "org.freedesktop.secrets", owner: ":1.7", pid: 4242,
                                                executable: "/usr/bin/gnome-keyring-daemon", replacing: true)
        #expect(!refused.description.contains("--replace"), "\(refused.description)")
        #expect(refused.description.contains("kill 4242") && refused.description.contains("sesame setup secret-service"), "\(refused.description)")
        let first = DBusServerError.nameOwned(name: "org.freedesktop.secrets", owner: ":1.7", pid: nil, executable: nil, replacing: false)
        #expect(first.description.contains("--replace"))
    }
}
