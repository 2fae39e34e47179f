import Foundation
import Sesame
import SesameLinux
import SesameLinuxTesting
import SesameSecretService
import SesameTesting
import Testing

/// A private session bus with Sesame's Secret Service on it, owning
/// `org.freedesktop.secrets`, over an in-memory store; clients run as
/// children with `DBUS_SESSION_BUS_ADDRESS` pointing at it.
struct SecretServiceFixture {
    static let python = TestPython.path
    static let secretTool = "/usr/bin/secret-tool"

    /// What the suites need, by Debian package; empty when they can run.
    static let missing: [String] = PrivateSessionBus.missingComponents
        + (FileManager.default.isExecutableFile(atPath: secretTool) ? [] : ["libsecret-tools"])
        + (FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/secretstorage") ? [] : ["python3-secretstorage"])
        + (FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") ? [] : ["util-linux (setpriv)"])
        + (FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/keyring") ? [] : ["python3-keyring"])
    static let missingNote: Comment = "needs dbus-daemon, libsecret-tools, python3-secretstorage and setpriv; missing: \(missing.joined(separator: ", "))"

    let bus: PrivateSessionBus
    let store: InMemorySecretServiceStore
    let server: SecretServiceServer

    static func start(store: InMemorySecretServiceStore = InMemorySecretServiceStore()) async throws -> SecretServiceFixture {
        let bus = try await PrivateSessionBus.start()
        do {
            let server = try await SecretServiceServer.start(store: store, address: bus.address)
            return SecretServiceFixture(bus: bus, store: store, server: server)
        } catch {
            bus.stop()
            throw error
        }
    }

    /// Runs `body` with a fresh fixture and stops it afterwards, thrown or not.
    static func with(_ store: InMemorySecretServiceStore = InMemorySecretServiceStore(),
                     _ body: (SecretServiceFixture) async throws -> Void) async throws {
        let fixture = try await start(store: store)
        do {
            try await body(fixture)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    func stop() async {
        await server.stop()
        bus.stop()
    }

    /// Runs `secret-tool` with `arguments`; `input` (a secret) goes in
    /// through the environment and a pipe, never argv.
    func secretTool(_ arguments: [String], input: String? = nil) async throws -> (status: Int32, output: String) {
        guard let input else { return try await bus.run(Self.secretTool, arguments) }
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try await bus.run("/bin/sh", ["-c", "printf %s \"$SESAME_TEST_INPUT\" | \(Self.secretTool) \(quoted)"],
                                 environment: ["SESAME_TEST_INPUT": input])
    }

    /// Runs a python3 script (with secretstorage and jeepney) against the bus.
    func python(_ script: String, _ arguments: [String] = [], asUser user: String? = nil) async throws -> (status: Int32, output: String) {
        if let user {
            return try await bus.run("/usr/bin/setpriv", ["--reuid=\(user)", "--regid=nogroup", "--clear-groups", Self.python, "-c", script] + arguments)
        }
        return try await bus.run(Self.python, ["-c", script] + arguments)
    }
}

/// Python helpers shared by the scripts: raw calls through jeepney, so a
/// test can send what no well-behaved client would.
enum PythonClient {
    static let prelude = """
        import sys
        from jeepney import DBusAddress, new_method_call, MatchRule, DBusErrorResponse
        from jeepney.io.blocking import open_dbus_connection, Proxy
        from jeepney.bus_messages import message_bus
        conn = open_dbus_connection(bus='SESSION')
        ROOT = '/org/freedesktop/secrets'
        def call(path, iface, member, sig='', args=()):
            msg = new_method_call(DBusAddress(path, bus_name='org.freedesktop.secrets', interface=iface), member, sig, args)
            reply = conn.send_and_get_reply(msg, timeout=20)
            if reply.header.message_type.name == 'error':
                return ('ERROR', reply.header.fields.get(4), reply.body)
            return reply.body
        def svc(member, sig='', args=()):
            return call(ROOT, 'org.freedesktop.Secret.Service', member, sig, args)

        """
}
