import Foundation
import SesameLinuxTesting
import SesameSecretService
import SesameTesting
import Testing

/// SPEC D10's prompt flow, driven by raw calls (jeepney) so each step and the
/// Completed signal are seen as a client sees them.
@Suite("Secret Service: locked items, Unlock, Prompt, Completed, Dismiss", .serialized,
       .enabled(if: SecretServiceFixture.missing.isEmpty, SecretServiceFixture.missingNote))
struct PromptObjectTests {
    /// Creates an item (locked when the store says so) and prints each step.
    static let flow = PythonClient.prelude + """
        import os, time
        def wait_for(path):
            for _ in range(2000):
                if os.path.exists(path): return
                time.sleep(0.01)
            sys.exit('nobody made ' + path)
        mode = sys.argv[1]
        _, session = svc('OpenSession', 'sv', ('plain', ('s', '')))
        item, _ = call(ROOT + '/aliases/default', 'org.freedesktop.Secret.Collection', 'CreateItem', 'a{sv}(oayays)b',
            ({'org.freedesktop.Secret.Item.Label': ('s', 'Bank\\x1b[31m'), 'org.freedesktop.Secret.Item.Attributes': ('a{ss}', {'a': 'b'})},
             (session, b'', b'hidden', 'text/plain'), False))
        print('search', svc('SearchItems', 'a{ss}', ({'a': 'b'},)))
        print('locked prop', call(item, 'org.freedesktop.DBus.Properties', 'Get', 'ss', ('org.freedesktop.Secret.Item', 'Locked')))
        print('getsecrets', svc('GetSecrets', 'aoo', ([item], session))[1])
        print('getsecret', call(item, 'org.freedesktop.Secret.Item', 'GetSecret', 'o', (session,))[1])
        unlocked, prompt = svc('Unlock', 'ao', ([item, ROOT + '/collection/login'],))
        print('unlock', unlocked, prompt != '/')
        rule = MatchRule(type='signal', interface='org.freedesktop.Secret.Prompt', member='Completed', path=prompt)
        Proxy(message_bus, conn).AddMatch(rule)
        with conn.filter(rule) as signals:
            print('prompt reply', call(prompt, 'org.freedesktop.Secret.Prompt', 'Prompt', 's', ('',)))
            if mode == 'dismiss':
                print('dismiss reply', call(prompt, 'org.freedesktop.Secret.Prompt', 'Dismiss'))
            if mode == 'leave':
                wait_for(sys.argv[2])
                print('leaving'); sys.stdout.flush(); conn.close(); sys.exit(0)
            signal = conn.recv_until_filtered(signals, timeout=10)
            print('completed', signal.body)
        print('after', svc('GetSecrets', 'aoo', ([item], session)))
        """

    @Test("SPEC D10: a locked item is IsLocked for GetSecrets/GetSecret; Unlock gives a prompt whose Completed carries it")
    func unlockSucceeds() async throws {
        let store = InMemorySecretServiceStore()
        await store.setNewItemsNeedAuthentication(true)
        try await SecretServiceFixture.with(store) { fixture in
            let result = try await fixture.python(Self.flow, ["succeed"])
            #expect(result.status == 0, "\(result.output)")
            let item = "/org/freedesktop/secrets/collection/login/i1"
            #expect(result.output.contains("search ([], ['\(item)'])"), "\(result.output)")
            #expect(result.output.contains("locked prop (('b', True),)"), "\(result.output)")
            #expect(result.output.contains("getsecrets org.freedesktop.Secret.Error.IsLocked"), "\(result.output)")
            #expect(result.output.contains("getsecret org.freedesktop.Secret.Error.IsLocked"), "\(result.output)")
            // The collection holds the locked item: it opens with the prompt (SPEC D10: a prompt opens what it named, a collection as its items).
            #expect(result.output.contains("unlock [] True"), "\(result.output)")
            #expect(result.output.contains("prompt reply ()"), "\(result.output)")
            #expect(result.output.contains("completed (False, ('ao', ['\(item)', '/org/freedesktop/secrets/collection/login']))"), "\(result.output)")
            #expect(result.output.contains("after ({'\(item)': ("), "\(result.output)")
            #expect(result.output.contains("b'hidden'"), "\(result.output)")
            let reason = try #require(await store.reasons.first)
            // The calling program from /proc/<pid>/exe, and the label with its escape character escaped.
            #expect(reason.contains("python3"), "\(reason)")
            #expect(reason.contains("Bank") && !reason.contains("\u{1b}"), "\(reason)")
        }
    }

    @Test("SPEC D10: an authentication the owner cancels completes dismissed, and the item stays locked")
    func cancelled() async throws {
        let store = InMemorySecretServiceStore()
        await store.setNewItemsNeedAuthentication(true)
        await store.setAuthenticateOutcome(.cancel)
        try await SecretServiceFixture.with(store) { fixture in
            let result = try await fixture.python(Self.flow, ["cancel"])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("completed (True, ('ao', []))"), "\(result.output)")
            #expect(result.output.contains("after ('ERROR', 'org.freedesktop.Secret.Error.IsLocked'"), "\(result.output)")
        }
    }

    @Test("SPEC D10: Dismiss cancels the running authentication and completes dismissed")
    func dismissed() async throws {
        let store = InMemorySecretServiceStore()
        await store.setNewItemsNeedAuthentication(true)
        await store.setAuthenticateOutcome(.waitForCancellation)
        try await SecretServiceFixture.with(store) { fixture in
            let result = try await fixture.python(Self.flow, ["dismiss"])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("dismiss reply ()"), "\(result.output)")
            #expect(result.output.contains("completed (True, ('ao', []))"), "\(result.output)")
            // The authentication's task ends on its own thread, maybe after
            // the client heard Completed.
            for _ in 0..<3000 where await store.cancellations == 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await store.cancellations == 1)
        }
    }

    @Test("SPEC D10: a client that leaves the bus cancels its running prompt")
    func clientLeaves() async throws {
        let store = InMemorySecretServiceStore()
        await store.setNewItemsNeedAuthentication(true)
        await store.setAuthenticateOutcome(.waitForCancellation)
        try await SecretServiceFixture.with(store) { fixture in
            // The client leaves only once the owner is being asked, so the leave meets a running authentication.
            let leave = "\(fixture.bus.directory)/leave"
            async let run = fixture.python(Self.flow, ["leave", leave])
            try await Self.poll { await store.runningAuthentications == 1 }
            _ = FileManager.default.createFile(atPath: leave, contents: nil)
            let result = try await run
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("leaving"), "\(result.output)")
            try await Self.poll { await store.cancellations == 1 }
            #expect(await store.runningAuthentications == 0)
        }
    }

    @Test("SPEC D10: a client that leaves while its prompt is being prepared never reaches the owner; one that dismisses then completes dismissed")
    func leaveOrDismissBeforeTheAuthenticationBegins() async throws {
        for mode in ["leave", "dismiss"] {
            let store = InMemorySecretServiceStore()
            await store.setNewItemsNeedAuthentication(true)
            await store.setAuthenticateOutcome(.waitForCancellation)
            try await SecretServiceFixture.with(store) { fixture in
                let ready = "\(fixture.bus.directory)/ready", go = "\(fixture.bus.directory)/go"
                async let run = fixture.python(PythonClient.prelude + """
                    import os, time
                    def wait_for(path):
                        for _ in range(2000):
                            if os.path.exists(path): return
                            time.sleep(0.01)
                        sys.exit('nobody made ' + path)
                    _, session = svc('OpenSession', 'sv', ('plain', ('s', '')))
                    item, _ = call(ROOT + '/aliases/default', 'org.freedesktop.Secret.Collection', 'CreateItem', 'a{sv}(oayays)b',
                        ({}, (session, b'', b'v', 'text/plain'), False))
                    _, prompt = svc('Unlock', 'ao', ([item],))
                    open(sys.argv[2], 'w').close()
                    wait_for(sys.argv[3])
                    rule = MatchRule(type='signal', interface='org.freedesktop.Secret.Prompt', member='Completed', path=prompt)
                    Proxy(message_bus, conn).AddMatch(rule)
                    with conn.filter(rule) as signals:
                        print('prompt reply', call(prompt, 'org.freedesktop.Secret.Prompt', 'Prompt', 's', ('',)))
                        if sys.argv[1] == 'leave':
                            print('leaving'); sys.stdout.flush(); conn.close(); sys.exit(0)
                        print('dismiss reply', call(prompt, 'org.freedesktop.Secret.Prompt', 'Dismiss'))
                        print('completed', conn.recv_until_filtered(signals, timeout=20).body)
                    """, [mode, ready, go])
                try await Self.poll { FileManager.default.fileExists(atPath: ready) }
                // The server reads the items' labels for the prompt's reason; held there, the client acts.
                await store.holdItemLookups()
                _ = FileManager.default.createFile(atPath: go, contents: nil)
                try await Self.poll { await store.heldItemLookups == 1 }
                if mode == "leave" {
                    let result = try await run
                    #expect(result.output.contains("leaving"), "\(result.output)")
                    try await Self.poll { await !store.callersLeft.isEmpty }
                    await store.releaseItemLookups()
                    try await Self.poll { await store.heldItemLookups == 0 }
                    // What would start the authentication runs on the server's actor right after the lookup.
                    try await Task.sleep(for: .seconds(1))
                } else {
                    // Dismiss is answered while the lookup is held; Completed must wait for it.
                    try await Task.sleep(for: .seconds(1))
                    await store.releaseItemLookups()
                    let result = try await run
                    #expect(result.status == 0, "\(result.output)")
                    #expect(result.output.contains("dismiss reply ()"), "\(result.output)")
                    #expect(result.output.contains("completed (True, ('ao', []))"), "\(result.output)")
                }
                #expect(await store.reasons.isEmpty, "\(mode): the owner must not be asked for a client that \(mode == "leave" ? "left" : "dismissed")")
                #expect(await store.runningAuthentications == 0)
            }
        }
    }

    /// Waits up to 20 s for `condition`; a test that needs it fails when it never holds.
    static func poll(_ condition: () async -> Bool) async throws {
        for _ in 0..<2000 {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the condition never held")
        throw CancellationError()
    }

    @Test("SPEC D10: a prompt answers only the client it was made for")
    func promptOwnedByItsClient() async throws {
        let store = InMemorySecretServiceStore()
        await store.setNewItemsNeedAuthentication(true)
        try await SecretServiceFixture.with(store) { fixture in
            let result = try await fixture.python(PythonClient.prelude + """
                _, session = svc('OpenSession', 'sv', ('plain', ('s', '')))
                item, _ = call(ROOT + '/aliases/default', 'org.freedesktop.Secret.Collection', 'CreateItem', 'a{sv}(oayays)b',
                    ({}, (session, b'', b'v', 'text/plain'), False))
                _, prompt = svc('Unlock', 'ao', ([item],))
                other = open_dbus_connection(bus='SESSION')
                for member, sig, args in [('Prompt', 's', ('',)), ('Dismiss', '', ())]:
                    reply = other.send_and_get_reply(new_method_call(DBusAddress(prompt, bus_name='org.freedesktop.secrets', interface='org.freedesktop.Secret.Prompt'), member, sig, args))
                    print('other', member, reply.header.fields.get(4))
                """)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("other Prompt org.freedesktop.Secret.Error.NoSuchObject"), "\(result.output)")
            #expect(result.output.contains("other Dismiss org.freedesktop.Secret.Error.NoSuchObject"), "\(result.output)")
            #expect(await store.reasons.isEmpty, "another client must not start the owner's authentication")
        }
    }

    @Test("SPEC D10: what one client's Unlock opened stays locked for every other client; a Lock from any client locks it for all")
    func unlockBelongsToItsClient() async throws {
        let store = InMemorySecretServiceStore()
        await store.setNewItemsNeedAuthentication(true)
        try await SecretServiceFixture.with(store) { fixture in
            let result = try await fixture.python(PythonClient.prelude + """
                first = conn
                _, session = svc('OpenSession', 'sv', ('plain', ('s', '')))
                item, _ = call(ROOT + '/aliases/default', 'org.freedesktop.Secret.Collection', 'CreateItem', 'a{sv}(oayays)b',
                    ({'org.freedesktop.Secret.Item.Attributes': ('a{ss}', {'a': 'b'})}, (session, b'', b'mine', 'text/plain'), False))
                _, prompt = svc('Unlock', 'ao', ([item],))
                rule = MatchRule(type='signal', interface='org.freedesktop.Secret.Prompt', member='Completed', path=prompt)
                Proxy(message_bus, conn).AddMatch(rule)
                with conn.filter(rule) as signals:
                    call(prompt, 'org.freedesktop.Secret.Prompt', 'Prompt', 's', ('',))
                    print('completed', conn.recv_until_filtered(signals, timeout=10).body)
                print('first reads', svc('GetSecrets', 'aoo', ([item], session))[0][item][2])
                conn = open_dbus_connection(bus='SESSION')
                _, other = svc('OpenSession', 'sv', ('plain', ('s', '')))
                print('other search', svc('SearchItems', 'a{ss}', ({'a': 'b'},)))
                print('other locked', call(item, 'org.freedesktop.DBus.Properties', 'Get', 'ss', ('org.freedesktop.Secret.Item', 'Locked')))
                print('other getsecrets', svc('GetSecrets', 'aoo', ([item], other))[1])
                print('other unlock needs a prompt', svc('Unlock', 'ao', ([item],))[1] != '/')
                print('other lock', svc('Lock', 'ao', ([item],)))
                conn = first
                print('first after lock', svc('GetSecrets', 'aoo', ([item], session))[1])
                """)
            #expect(result.status == 0, "\(result.output)")
            let item = "/org/freedesktop/secrets/collection/login/i1"
            #expect(result.output.contains("completed (False, ('ao', ['\(item)']))"), "\(result.output)")
            #expect(result.output.contains("first reads b'mine'"), "\(result.output)")
            #expect(result.output.contains("other search ([], ['\(item)'])"), "\(result.output)")
            #expect(result.output.contains("other locked (('b', True),)"), "\(result.output)")
            #expect(result.output.contains("other getsecrets org.freedesktop.Secret.Error.IsLocked"), "\(result.output)")
            #expect(result.output.contains("other unlock needs a prompt True"), "\(result.output)")
            #expect(result.output.contains("other lock (['\(item)'], '/')"), "\(result.output)")
            #expect(result.output.contains("first after lock org.freedesktop.Secret.Error.IsLocked"), "\(result.output)")
            #expect(await store.reasons.count == 1)
        }
    }

    @Test("SPEC D10: items that need nobody are never locked: Unlock answers them at once with no prompt")
    func unlockedItemsNeedNoPrompt() async throws {
        try await SecretServiceFixture.with { fixture in
            let result = try await fixture.python(PythonClient.prelude + """
                _, session = svc('OpenSession', 'sv', ('plain', ('s', '')))
                item, _ = call(ROOT + '/aliases/default', 'org.freedesktop.Secret.Collection', 'CreateItem', 'a{sv}(oayays)b',
                    ({}, (session, b'', b'open', 'text/plain'), False))
                print('unlock', svc('Unlock', 'ao', ([item],)))
                """)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("unlock (['/org/freedesktop/secrets/collection/login/i1'], '/')"), "\(result.output)")
            #expect(await fixture.store.reasons.isEmpty)
        }
    }
}
