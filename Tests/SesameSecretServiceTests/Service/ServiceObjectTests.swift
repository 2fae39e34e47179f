import Foundation
import SesameLinux
import SesameLinuxTesting
import SesameSecretService
import SesameTesting
import Testing

/// The object model beyond store and read: the in-process `session`
/// collection, aliases, properties and signals, and owning the bus name.
@Suite("Secret Service: session collection, aliases, properties, name ownership", .serialized,
       .enabled(if: SecretServiceFixture.missing.isEmpty, SecretServiceFixture.missingNote))
struct ServiceObjectTests {
    @Test("D10: the session collection keeps items in the process only, never in the store")
    func sessionCollection() async throws {
        try await SecretServiceFixture.with { fixture in
            let result = try await fixture.python(PythonClient.prelude + """
                _, s = svc('OpenSession', 'sv', ('plain', ('s', '')))
                print('alias', svc('ReadAlias', 's', ('session',)))
                item, _ = call(ROOT + '/aliases/session', 'org.freedesktop.Secret.Collection', 'CreateItem', 'a{sv}(oayays)b',
                    ({'org.freedesktop.Secret.Item.Attributes': ('a{ss}', {'tmp': '1'})}, (s, b'', b'ephemeral', 'text/plain'), False))
                print('item', item)
                print('search', svc('SearchItems', 'a{ss}', ({'tmp': '1'},)))
                print('secret', call(item, 'org.freedesktop.Secret.Item', 'GetSecret', 'o', (s,))[0][2])
                print('collections', call(ROOT, 'org.freedesktop.DBus.Properties', 'Get', 'ss', ('org.freedesktop.Secret.Service', 'Collections')))
                """)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("alias ('/org/freedesktop/secrets/collection/session',)"), "\(result.output)")
            #expect(result.output.contains("item /org/freedesktop/secrets/collection/session/s1"), "\(result.output)")
            #expect(result.output.contains("search (['/org/freedesktop/secrets/collection/session/s1'], [])"), "\(result.output)")
            #expect(result.output.contains("secret b'ephemeral'"), "\(result.output)")
            #expect(result.output.contains("'/org/freedesktop/secrets/collection/login', '/org/freedesktop/secrets/collection/session'"), "\(result.output)")
            #expect(try await fixture.store.searchItems(attributes: [:], in: nil).isEmpty)
        }
    }

    @Test("D10: CreateCollection with an alias, SetAlias, labels through Properties.Set, and the signals a client sees")
    func collectionsAndSignals() async throws {
        try await SecretServiceFixture.with { fixture in
            let result = try await fixture.python(PythonClient.prelude + """
                rule = MatchRule(type='signal', sender=conn.send_and_get_reply(new_method_call(DBusAddress('/org/freedesktop/DBus', bus_name='org.freedesktop.DBus', interface='org.freedesktop.DBus'), 'GetNameOwner', 's', ('org.freedesktop.secrets',))).body[0])
                Proxy(message_bus, conn).AddMatch(rule)
                with conn.filter(rule, bufsize=16) as signals:
                    col, prompt = svc('CreateCollection', 'a{sv}s', ({'org.freedesktop.Secret.Collection.Label': ('s', 'Work')}, 'work'))
                    print('created', col, prompt)
                    print('again', svc('CreateCollection', 'a{sv}s', ({}, 'work')))
                    print('readalias', svc('ReadAlias', 's', ('work',)))
                    svc('SetAlias', 'so', ('default', col))
                    print('default now', svc('ReadAlias', 's', ('default',)))
                    call(col, 'org.freedesktop.DBus.Properties', 'Set', 'ssv', ('org.freedesktop.Secret.Collection', 'Label', ('s', 'Office')))
                    print('label', call(ROOT + '/aliases/default', 'org.freedesktop.DBus.Properties', 'Get', 'ss', ('org.freedesktop.Secret.Collection', 'Label')))
                    print('readonly', call(col, 'org.freedesktop.DBus.Properties', 'Set', 'ssv', ('org.freedesktop.Secret.Collection', 'Locked', ('b', True)))[1])
                    print('introspect', 'org.freedesktop.Secret.Collection' in call(col, 'org.freedesktop.DBus.Introspectable', 'Introspect')[0])
                    print('delete', call(col, 'org.freedesktop.Secret.Collection', 'Delete'))
                    seen = []
                    for _ in range(4):
                        m = conn.recv_until_filtered(signals, timeout=5)
                        seen.append((m.header.fields[3], m.body))
                    print('signals', seen)
                """)
            #expect(result.status == 0, "\(result.output)")
            let out = result.output
            #expect(out.contains("created /org/freedesktop/secrets/collection/c1 /"), "\(out)")
            #expect(out.contains("again ('/org/freedesktop/secrets/collection/c1', '/')"), "\(out)")
            #expect(out.contains("readalias ('/org/freedesktop/secrets/collection/c1',)"), "\(out)")
            #expect(out.contains("default now ('/org/freedesktop/secrets/collection/c1',)"), "\(out)")
            #expect(out.contains("label (('s', 'Office'),)"), "\(out)")
            #expect(out.contains("readonly org.freedesktop.DBus.Error.PropertyReadOnly"), "\(out)")
            #expect(out.contains("introspect True"), "\(out)")
            #expect(out.contains("delete ('/',)"), "\(out)")
            #expect(out.contains("signals [('CollectionCreated', ('/org/freedesktop/secrets/collection/c1',)), ('CollectionChanged', ('/org/freedesktop/secrets/collection/c1',)), ('PropertiesChanged', ('org.freedesktop.Secret.Collection', {'Label': ('s', 'Office')}, [])), ('CollectionDeleted', ('/org/freedesktop/secrets/collection/c1',))]"), "\(out)")
        }
    }

    @Test("D10: a second provider is refused naming the first's pid and program; --replace takes the name and the first learns it")
    func nameOwnership() async throws {
        try await SecretServiceFixture.with { fixture in
            do {
                let second = try await SecretServiceServer.start(store: InMemorySecretServiceStore(), address: fixture.bus.address)
                await second.stop()
                Issue.record("a second provider must not start while the name is owned")
            } catch {
                let message = (error as? SecretServiceServerError)?.message ?? "\(error)"
                #expect(message.contains("org.freedesktop.secrets is already owned by \(fixture.server.uniqueName)"), "\(message)")
                #expect(message.contains("pid \(getpid())"), "\(message)")
                #expect(message.contains(ProcessExecutable.path(of: getpid()) ?? "?"), "\(message)")
            }
            let replacing = try await SecretServiceServer.start(store: InMemorySecretServiceStore(), address: fixture.bus.address, replace: true)
            let reason = await fixture.server.waitUntilFinished()
            #expect(reason.contains("replaced"), "\(reason)")
            await replacing.stop()
        }
    }

    @Test("D10: the server ends when its session bus does (a logout), saying why, instead of serving nobody forever")
    func busEnds() async throws {
        let fixture = try await SecretServiceFixture.start()
        fixture.bus.stop()
        let reason = await withTaskGroup(of: String?.self) { group in
            group.addTask { await fixture.server.waitUntilFinished() }
            group.addTask { try? await Task.sleep(for: .seconds(20)); return nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        await fixture.server.stop()
        #expect(reason?.contains("the session bus closed the connection") == true, "\(reason ?? "still serving after 20 s")")
    }
}
