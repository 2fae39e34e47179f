import Foundation
import Sesame
import SesameSecretService
import SesameTesting
import Testing

/// What one client, or another user on the bus, can take (SPEC D10):
/// signals reach the owner's peers only, every per-client resource is
/// bounded and freed when the client leaves, session items meet the vault's
/// checks, and a path named twice counts once.
@Suite("Secret Service: signals stay with the owner, per-client bounds (SPEC D10)", .serialized,
       .enabled(if: SecretServiceFixture.missing.isEmpty, SecretServiceFixture.missingNote))
struct ClientBoundsTests {
    /// Listens for every signal it may receive for `seconds`, after calling
    /// the service once when `call` is set, and prints those the service sent.
    static func listener(seconds: Double, call: Bool) -> String {
        PythonClient.prelude + """
            import time
            from jeepney import HeaderFields
            if \(call ? "True" : "False"):
                svc('ReadAlias', 's', ('default',))
            conn.send_and_get_reply(message_bus.AddMatch(MatchRule(type='signal')))
            owner = conn.send_and_get_reply(message_bus.GetNameOwner('org.freedesktop.secrets')).body[0]
            heard = []
            end = time.time() + \(seconds)
            while time.time() < end:
                try:
                    message = conn.receive(timeout=max(0.05, end - time.time()))
                except TimeoutError:
                    break
                if message.header.fields.get(HeaderFields.sender) == owner:
                    heard.append((message.header.fields.get(HeaderFields.member), repr(message.body)))
            print('heard', len(heard))
            for member, body in heard:
                print('signal', member, body)
            """
    }

    /// A store holding one item that needs authentication, labelled `label`.
    static func storeWithLockedItem(_ label: String) async throws -> (InMemorySecretServiceStore, SecretServiceItemProperties) {
        let store = InMemorySecretServiceStore()
        await store.setNewItemsNeedAuthentication(true)
        let secret = SecretServiceSecret(value: SecretBytes(utf8: "v"), contentType: "text/plain")
        let item = try await store.createItem(in: "login", label: label, attributes: ["k": "v"], secret: secret, replacing: false,
                                              for: SecretServiceCaller(busName: ":0.0", pid: 0, executable: nil))
        return (store, item)
    }

    @Test("D10: another uid on the bus hears no signal (no label, attribute or path); the owner's client hears ItemCreated")
    func signalsStayWithTheOwner() async throws {
        try await SecretServiceFixture.with { fixture in
            async let stranger = fixture.python(Self.listener(seconds: 5, call: false), asUser: "nobody")
            async let owner = fixture.python(Self.listener(seconds: 5, call: true))
            try await Task.sleep(for: .milliseconds(1500))
            let stored = try await fixture.secretTool(["store", "--label=alice@example.com", "user", "alice@example.com"], input: "pw")
            #expect(stored.status == 0, "\(stored.output)")
            let relabel = try await fixture.python(PythonClient.prelude + """
                items = svc('SearchItems', 'a{ss}', ({'user': 'alice@example.com'},))[0]
                print(call(items[0], 'org.freedesktop.DBus.Properties', 'Set', 'ssv',
                           ('org.freedesktop.Secret.Item', 'Label', ('s', 'alice at example.com'))))
                """)
            #expect(relabel.status == 0, "\(relabel.output)")
            let (heardByStranger, heardByOwner) = try await (stranger, owner)
            #expect(heardByStranger.output.contains("heard 0"), "another uid heard the service: \(heardByStranger.output)")
            #expect(!heardByStranger.output.contains("alice"), "\(heardByStranger.output)")
            #expect(heardByOwner.output.contains("signal ItemCreated"), "\(heardByOwner.output)")
        }
    }

    @Test("D10: a client past 64 sessions loses its oldest; past 32 pending prompts it is refused; 5000 paths in one call are refused; all freed when it leaves")
    func perClientBounds() async throws {
        let (store, item) = try await Self.storeWithLockedItem("Locked")
        try await SecretServiceFixture.with(store) { fixture in
            let script = PythonClient.prelude + """
                import time
                def err(r): return r[1] if isinstance(r, tuple) and r and r[0] == 'ERROR' else 'OK'
                sessions = [svc('OpenSession', 'sv', ('plain', ('s', '')))[1] for _ in range(100)]
                print('first session', err(svc('GetSecrets', 'aoo', ([], sessions[0]))))
                print('last session', err(svc('GetSecrets', 'aoo', ([], sessions[-1]))))
                item = sys.argv[1]
                outcomes = [err(svc('Unlock', 'ao', ([item],))) for _ in range(40)]
                print('prompts ok', outcomes.count('OK'), 'refused', outcomes.count('org.freedesktop.DBus.Error.LimitsExceeded'))
                print('many paths', err(svc('Unlock', 'ao', ([item] + [ROOT + '/collection/login/x%d' % i for i in range(5000)],))))
                print('ready'); sys.stdout.flush()
                time.sleep(1.5)
                """
            async let client = fixture.python(script, ["/org/freedesktop/secrets/collection/login/\(item.id.item)"])
            var peak = (sessions: 0, prompts: 0)
            for _ in 0..<400 {
                peak = (max(peak.sessions, await fixture.server.openSessionCount()), max(peak.prompts, await fixture.server.openPromptCount()))
                if peak.prompts >= 32 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            let result = try await client
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("first session org.freedesktop.Secret.Error.NoSession"), "\(result.output)")
            #expect(result.output.contains("last session OK"), "\(result.output)")
            #expect(result.output.contains("prompts ok 32 refused 8"), "\(result.output)")
            #expect(result.output.contains("many paths org.freedesktop.DBus.Error.LimitsExceeded"), "\(result.output)")
            #expect(peak.sessions <= 64 && peak.prompts <= 32, "\(peak)")
            // Gone with the client.
            for _ in 0..<300 where await fixture.server.openSessionCount() + fixture.server.openPromptCount() > 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(await fixture.server.openSessionCount() == 0)
            #expect(await fixture.server.openPromptCount() == 0)
        }
    }

    @Test("D9, D10: a session item meets the vault's checks (control characters, 999 attributes) and leaves with its client")
    func sessionItems() async throws {
        try await SecretServiceFixture.with { fixture in
            let create = PythonClient.prelude + """
                def err(r): return r[1] if isinstance(r, tuple) and r and r[0] == 'ERROR' else 'OK'
                s = svc('OpenSession', 'sv', ('plain', ('s', '')))[1]
                def make(label, attributes):
                    return call(ROOT + '/collection/session', 'org.freedesktop.Secret.Collection', 'CreateItem', 'a{sv}(oayays)b',
                        ({'org.freedesktop.Secret.Item.Label': ('s', label), 'org.freedesktop.Secret.Item.Attributes': ('a{ss}', attributes)},
                         (s, b'', b'value', 'text/plain'), False))
                print('escape label', err(make('\\x1b[31mred', {})))
                print('999 attributes', err(make('many', {'a%d' % i: 'v' for i in range(999)})))
                print('fine', err(make('fine', {'kept': 'yes'})))
                print('found', len(svc('SearchItems', 'a{ss}', ({'kept': 'yes'},))[0]))
                """
            let result = try await fixture.python(create)
            #expect(result.output.contains("escape label org.freedesktop.DBus.Error.Failed"), "\(result.output)")
            #expect(result.output.contains("999 attributes org.freedesktop.DBus.Error.Failed"), "\(result.output)")
            #expect(result.output.contains("fine OK") && result.output.contains("found 1"), "\(result.output)")
            // The client is gone: so is its session item.
            var found = "found 1"
            for _ in 0..<50 where found.contains("found 1") {
                found = try await fixture.python(PythonClient.prelude + "print('found', len(svc('SearchItems', 'a{ss}', ({'kept': 'yes'},))[0]))").output
                if found.contains("found 1") { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(found.contains("found 0"), "a session item outlived its client: \(found)")
        }
    }

    @Test("D10: an item named twice in Unlock is prompted for and reported once; Completed reaches only the prompt's client")
    func duplicatePaths() async throws {
        let (store, item) = try await Self.storeWithLockedItem("Twice")
        let path = "/org/freedesktop/secrets/collection/login/\(item.id.item)"
        try await SecretServiceFixture.with(store) { fixture in
            async let bystander = fixture.python(Self.listener(seconds: 4, call: true))
            try await Task.sleep(for: .milliseconds(1000))
            let script = PythonClient.prelude + """
                from jeepney import HeaderFields
                unlocked, prompt = svc('Unlock', 'ao', ([sys.argv[1], sys.argv[1]],))
                conn.send_and_get_reply(message_bus.AddMatch(MatchRule(type='signal', member='Completed')))
                call(prompt, 'org.freedesktop.Secret.Prompt', 'Prompt', 's', ('',))
                while True:
                    message = conn.receive(timeout=10)
                    if message.header.fields.get(HeaderFields.member) == 'Completed':
                        print('completed', message.body)
                        break
                """
            let result = try await fixture.python(script, [path])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("completed (False, ('ao', ['\(path)']))"), "\(result.output)")
            let reasons = await store.reasons
            #expect(reasons.count == 1 && reasons[0].components(separatedBy: "\"Twice\"").count == 2, "\(reasons)")
            let heard = try await bystander
            #expect(!heard.output.contains("Completed"), "another client heard the prompt's result: \(heard.output)")
        }
    }
}
