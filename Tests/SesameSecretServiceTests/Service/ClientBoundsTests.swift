import Foundation
import Glibc
import Sesame
import SesameLinuxTesting
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
    /// Listens for every signal it may receive, after calling the service
    /// once when `call` is set, and prints those the service sent. It makes
    /// the file `argv[1]` once it listens, and stops half a second after the
    /// file `argv[2]` appears: a test under load waits for it, not a clock.
    static func listener(call: Bool) -> String {
        PythonClient.prelude + """
            import os, time
            from jeepney import HeaderFields
            if \(call ? "True" : "False"):
                svc('ReadAlias', 's', ('default',))
            conn.send_and_get_reply(message_bus.AddMatch(MatchRule(type='signal')))
            owner = conn.send_and_get_reply(message_bus.GetNameOwner('org.freedesktop.secrets')).body[0]
            open(sys.argv[1], 'w').close()
            heard = []
            end, drain = time.time() + 120, None
            while time.time() < end and (drain is None or time.time() < drain):
                if drain is None and os.path.exists(sys.argv[2]):
                    drain = time.time() + 0.5
                try:
                    message = conn.receive(timeout=0.1)
                except TimeoutError:
                    continue
                if message.header.fields.get(HeaderFields.sender) == owner:
                    heard.append((message.header.fields.get(HeaderFields.member), repr(message.body)))
            print('heard', len(heard))
            for member, body in heard:
                print('signal', member, body)
            """
    }

    /// A folder every uid may write the listeners' files into.
    struct Handshake {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-signals-\(UUID().uuidString)").path

        init() throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            chmod(directory, 0o777)
        }

        func arguments(_ name: String) -> [String] { [directory + "/" + name, directory + "/done"] }

        /// Waits until every listener of `names` listens.
        func waitFor(_ names: [String]) async throws {
            for _ in 0..<600 where !names.allSatisfy({ FileManager.default.fileExists(atPath: directory + "/" + $0) }) {
                try await Task.sleep(for: .milliseconds(50))
            }
            try #require(names.allSatisfy { FileManager.default.fileExists(atPath: directory + "/" + $0) }, "a listener did not start")
        }

        func finish() { _ = FileManager.default.createFile(atPath: directory + "/done", contents: nil) }
        func remove() { try? FileManager.default.removeItem(atPath: directory) }
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
            let handshake = try Handshake()
            defer { handshake.remove() }
            async let stranger = fixture.python(Self.listener(call: false), handshake.arguments("stranger"), asUser: "nobody")
            async let owner = fixture.python(Self.listener(call: true), handshake.arguments("owner"))
            try await handshake.waitFor(["stranger", "owner"])
            let stored = try await fixture.secretTool(["store", "--label=alice@example.com", "user", "alice@example.com"], input: "pw")
            #expect(stored.status == 0, "\(stored.output)")
            let relabel = try await fixture.python(PythonClient.prelude + """
                items = svc('SearchItems', 'a{ss}', ({'user': 'alice@example.com'},))[0]
                print(call(items[0], 'org.freedesktop.DBus.Properties', 'Set', 'ssv',
                           ('org.freedesktop.Secret.Item', 'Label', ('s', 'alice at example.com'))))
                """)
            #expect(relabel.status == 0, "\(relabel.output)")
            handshake.finish()
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
                peak = (max(peak.sessions, await fixture.server.openSessionCount()), max(peak.prompts, await fixture.server.openPromptObjectCount()))
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
            for _ in 0..<3000 where await fixture.server.openSessionCount() + fixture.server.openPromptObjectCount() > 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(await fixture.server.openSessionCount() == 0)
            #expect(await fixture.server.openPromptObjectCount() == 0)
        }
    }

    @Test("D10: a session item meets the vault's bounds (a 5000-byte label, 999 attributes) and, as the API defines the collection, outlives its client")
    func sessionItems() async throws {
        try await SecretServiceFixture.with { fixture in
            let create = PythonClient.prelude + """
                def err(r): return r[1] if isinstance(r, tuple) and r and r[0] == 'ERROR' else 'OK'
                s = svc('OpenSession', 'sv', ('plain', ('s', '')))[1]
                def make(label, attributes):
                    return call(ROOT + '/collection/session', 'org.freedesktop.Secret.Collection', 'CreateItem', 'a{sv}(oayays)b',
                        ({'org.freedesktop.Secret.Item.Label': ('s', label), 'org.freedesktop.Secret.Item.Attributes': ('a{ss}', attributes)},
                         (s, b'', b'value', 'text/plain'), False))
                print('long label', err(make('x' * 5000, {})))
                print('999 attributes', err(make('many', {'a%d' % i: 'v' for i in range(999)})))
                print('fine', err(make('fine\\x1b[31m', {'kept': 'yes'})))
                print('found', len(svc('SearchItems', 'a{ss}', ({'kept': 'yes'},))[0]))
                """
            let result = try await fixture.python(create)
            #expect(result.output.contains("long label org.freedesktop.DBus.Error.Failed"), "\(result.output)")
            #expect(result.output.contains("999 attributes org.freedesktop.DBus.Error.Failed"), "\(result.output)")
            #expect(result.output.contains("fine OK") && result.output.contains("found 1"), "\(result.output)")
            // Its client is gone; the item stays for the next one, as python-keyring expects.
            let found = try await fixture.python(PythonClient.prelude + "print('found', len(svc('SearchItems', 'a{ss}', ({'kept': 'yes'},))[0]))")
            #expect(found.output.contains("found 1"), "\(found.output)")
        }
    }

    @Test("D10: an item named twice in Unlock is prompted for and reported once; Completed reaches only the prompt's client")
    func duplicatePaths() async throws {
        let (store, item) = try await Self.storeWithLockedItem("Twice")
        let path = "/org/freedesktop/secrets/collection/login/\(item.id.item)"
        try await SecretServiceFixture.with(store) { fixture in
            let handshake = try Handshake()
            defer { handshake.remove() }
            async let bystander = fixture.python(Self.listener(call: true), handshake.arguments("bystander"))
            try await handshake.waitFor(["bystander"])
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
            handshake.finish()
            let heard = try await bystander
            #expect(!heard.output.contains("Completed"), "another client heard the prompt's result: \(heard.output)")
        }
    }
}
