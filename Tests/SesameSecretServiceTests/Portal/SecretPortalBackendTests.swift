import Foundation
import SesameSecretService
import SesameTesting
import Testing

/// The Secret portal's backend called directly, as xdg-desktop-portal
/// calls it, and as a broken or hostile caller might: each app id has one
/// 64-byte secret, and a descriptor that cannot take it is an error, never
/// a crash or a hang (SPEC D12).
@Suite("Secret portal backend: RetrieveSecret", .serialized,
       .enabled(if: SecretServiceFixture.missing.isEmpty, SecretServiceFixture.missingNote))
struct SecretPortalBackendTests {
    /// Python over jeepney with descriptor passing: `retrieve(app, mode)`
    /// prints the response and the bytes read, or the D-Bus error.
    static let prelude = PythonClient.prelude + """
        import os, threading
        fdconn = open_dbus_connection(bus='SESSION', enable_fds=True)
        PORTAL = DBusAddress('/org/freedesktop/portal/desktop', bus_name='org.freedesktop.secrets',
                             interface='org.freedesktop.impl.portal.Secret')
        def retrieve(app, mode='pipe', connection=None):
            connection = connection or fdconn
            r, w = os.pipe()
            if mode == 'reader-gone':
                os.close(r)
            fd = r if mode == 'read-end' else w
            msg = new_method_call(PORTAL, 'RetrieveSecret', 'osha{sv}', ('/org/freedesktop/portal/desktop/request/1_1/t', app, fd, {}))
            reply = connection.send_and_get_reply(msg, timeout=20)
            os.close(w)
            if mode != 'reader-gone':
                data = b'' if reply.header.message_type.name == 'error' else os.read(r, 1000)
                os.close(r)
            if reply.header.message_type.name == 'error':
                return 'ERROR %s %s' % (reply.header.fields.get(4), reply.body[0] if reply.body else '')
            return '%d %d %s' % (reply.body[0], len(data), data.hex())

        """

    @Test("D12: 64 bytes per app id, the same on every request, never shared by two ids; the host's empty id has its own")
    func oneSecretPerApp() async throws {
        try await SecretServiceFixture.with { fixture in
            let result = try await fixture.python(Self.prelude + """
                for app in ['org.example.Notes', 'org.example.Notes', 'org.example.Other', '', '']:
                    print(retrieve(app))
                """)
            let lines = result.output.split(separator: "\n").map(String.init)
            try #require(lines.count == 5, "\(result.output)")
            let fields = lines.map { $0.split(separator: " ").map(String.init) }
            for field in fields {
                #expect(field.count == 3 && field[0] == "0" && field[1] == "64", "\(field)")
            }
            #expect(fields[0][2] == fields[1][2], "the same app got two secrets")
            #expect(fields[0][2] != fields[2][2], "two apps share a secret")
            #expect(fields[3][2] == fields[4][2] && fields[3][2] != fields[0][2], "the host's key: \(result.output)")
            // Kept as gnome-keyring keeps them: app_id, the portal's schema, "Application key for ID".
            let items = try await fixture.store.searchItems(attributes: ["app_id": "org.example.Notes"], in: nil)
            #expect(items.count == 1)
            #expect(items.first?.label == "Application key for org.example.Notes")
            #expect(items.first?.attributes == ["app_id": "org.example.Notes", "xdg:schema": "org.freedesktop.portal.Secret"])
        }
    }

    @Test("D12: an item that merely carries an app_id among other attributes is never handed out as the app's secret")
    func passwordWithAppIDIsNotAKey() async throws {
        try await SecretServiceFixture.with { fixture in
            let stored = try await fixture.secretTool(["store", "--label=Mail", "app_id", "org.example.Mail", "user", "ana"], input: "mail password")
            #expect(stored.status == 0, "\(stored.output)")
            let result = try await fixture.python(Self.prelude + "print(retrieve('org.example.Mail'))")
            let field = result.output.split(separator: " ").map(String.init)
            #expect(field.count == 3 && field[1] == "64", "\(result.output)")
            #expect(!result.output.contains(Data("mail password".utf8).map { String(format: "%02x", $0) }.joined()))
            #expect(try await fixture.store.searchItems(attributes: ["app_id": "org.example.Mail"], in: nil).count == 2)
        }
    }

    @Test("D12: eight first requests at once for a new app get one secret, and one item is made")
    func concurrentFirstRequests() async throws {
        try await SecretServiceFixture.with { fixture in
            let result = try await fixture.python(Self.prelude + """
                results = []
                def one():
                    connection = open_dbus_connection(bus='SESSION', enable_fds=True)
                    results.append(retrieve('org.example.Race', connection=connection))
                threads = [threading.Thread(target=one) for _ in range(8)]
                for t in threads: t.start()
                for t in threads: t.join()
                print('\\n'.join(results))
                """)
            let secrets = Set(result.output.split(separator: "\n").map { $0.split(separator: " ").last.map(String.init) ?? "" })
            #expect(result.output.split(separator: "\n").count == 8, "\(result.output)")
            #expect(secrets.count == 1, "\(result.output)")
            #expect(try await fixture.store.searchItems(attributes: ["app_id": "org.example.Race"], in: nil).count == 1)
        }
    }

    @Test("D12: a read end, a pipe whose reader left, a caller that leaves mid-call and a wrong signature are errors; the backend keeps serving")
    func hostileDescriptors() async throws {
        try await SecretServiceFixture.with { fixture in
            let started = ContinuousClock.now
            let result = try await fixture.python(Self.prelude + """
                print('read-end', retrieve('org.example.Notes', 'read-end'))
                print('reader-gone', retrieve('org.example.Notes', 'reader-gone'))
                bad = new_method_call(PORTAL, 'RetrieveSecret', 'osa{sv}', ('/org/freedesktop/portal/desktop/request/1_1/t', 'x', {}))
                reply = fdconn.send_and_get_reply(bad, timeout=20)
                print('signature', reply.header.fields.get(4))
                # A caller that sends and leaves at once: its descriptor and reply go nowhere.
                leaving = open_dbus_connection(bus='SESSION', enable_fds=True)
                r, w = os.pipe()
                leaving.send(new_method_call(PORTAL, 'RetrieveSecret', 'osha{sv}', ('/org/freedesktop/portal/desktop/request/1_2/t', 'org.example.Gone', w, {})))
                leaving.close()
                os.close(w)
                print('after', retrieve('org.example.Notes'))
                """)
            #expect(result.output.contains("read-end ERROR org.freedesktop.DBus.Error.Failed the app's secret could not be written to its descriptor: it is not open for writing"), "\(result.output)")
            #expect(result.output.contains("reader-gone ERROR org.freedesktop.DBus.Error.Failed the app's secret could not be written to its descriptor: its reader is gone"), "\(result.output)")
            #expect(result.output.contains("signature org.freedesktop.DBus.Error.InvalidArgs"), "\(result.output)")
            #expect(result.output.contains("after 0 64 "), "\(result.output)")
            // Refused at once, not after the write's timeout.
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test("D12: the backend's version property and introspection, and Close on a request object")
    func propertiesAndIntrospection() async throws {
        try await SecretServiceFixture.with { fixture in
            let result = try await fixture.python(PythonClient.prelude + """
                P = '/org/freedesktop/portal/desktop'
                print('version', call(P, 'org.freedesktop.DBus.Properties', 'Get', 'ss', ('org.freedesktop.impl.portal.Secret', 'version')))
                print('request props', call(P + '/request/1_1/t', 'org.freedesktop.DBus.Properties', 'GetAll', 's', ('org.freedesktop.impl.portal.Request',)))
                print('close', call(P + '/request/1_1/t', 'org.freedesktop.impl.portal.Request', 'Close'))
                xml = call(P, 'org.freedesktop.DBus.Introspectable', 'Introspect')[0]
                print('introspect', 'RetrieveSecret' in xml and 'type="h"' in xml)
                """)
            #expect(result.output.contains("version (('u', 1),)"), "\(result.output)")
            #expect(result.output.contains("request props ({},)"), "\(result.output)")
            #expect(result.output.contains("close ()"), "\(result.output)")
            #expect(result.output.contains("introspect True"), "\(result.output)")
        }
    }
}
