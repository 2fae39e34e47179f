import Foundation
import Sesame
import SesameLinuxTesting
import SesameSecretService
import Testing

@Suite("SPEC D14: a session lock ends the Secret Service's openings", .enabled(if: SecretServiceFixture.missing.isEmpty, SecretServiceFixture.missingNote))
struct SessionLockSignalTests {
    @Test("SPEC D14, D10: an item a client opened is locked again at the lock, and the client is told (Locked, ItemChanged)")
    func lockEndsOpenings() async throws {
        let store = InMemorySecretServiceStore()
        await store.setNewItemsNeedAuthentication(true)
        try await SecretServiceFixture.with(store) { fixture in
            #expect(try await fixture.secretTool(["store", "--label=Guarded", "k", "v"], input: "guarded value").status == 0)
            let client = Task {
                try await fixture.python(PythonClient.prelude + """
                    owner = conn.send_and_get_reply(new_method_call(DBusAddress('/org/freedesktop/DBus', bus_name='org.freedesktop.DBus', interface='org.freedesktop.DBus'), 'GetNameOwner', 's', ('org.freedesktop.secrets',))).body[0]
                    rule = MatchRule(type='signal', sender=owner)
                    Proxy(message_bus, conn).AddMatch(rule)
                    with conn.filter(rule, bufsize=32) as signals:
                        s = svc('OpenSession', 'sv', ('plain', ('s', '')))[1]
                        unlocked, locked = svc('SearchItems', 'a{ss}', ({'k': 'v'},))
                        item = locked[0]
                        opened, prompt = svc('Unlock', 'ao', ([item],))
                        call(prompt, 'org.freedesktop.Secret.Prompt', 'Prompt', 's', ('',))
                        while conn.recv_until_filtered(signals, timeout=10).header.fields[3] != 'Completed':
                            pass
                        def is_locked():
                            return call(item, 'org.freedesktop.DBus.Properties', 'Get', 'ss', ('org.freedesktop.Secret.Item', 'Locked'))[0][1]
                        print('locked before', is_locked())
                        # Reading the secret tells the test the opening is in place.
                        print('secret', bytes(call(item, 'org.freedesktop.Secret.Item', 'GetSecret', 'o', (s,))[0][2]))
                        seen = []
                        while 'ItemChanged' not in seen:
                            seen.append(conn.recv_until_filtered(signals, timeout=20).header.fields[3])
                        print('signals', seen)
                        print('locked after', is_locked())
                        print('secret after', call(item, 'org.freedesktop.Secret.Item', 'GetSecret', 'o', (s,))[1])
                    """)
            }
            let deadline = Date().addingTimeInterval(20)
            while await store.readers.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
            await fixture.server.sessionLocked()
            let result = try await client.value
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("locked before False"), "\(result.output)")
            #expect(result.output.contains("secret b'guarded value'"), "\(result.output)")
            #expect(result.output.contains("signals ['PropertiesChanged', 'ItemChanged']"), "\(result.output)")
            #expect(result.output.contains("locked after True"), "\(result.output)")
            #expect(result.output.contains("secret after org.freedesktop.Secret.Error.IsLocked"), "\(result.output)")
        }
    }
}
