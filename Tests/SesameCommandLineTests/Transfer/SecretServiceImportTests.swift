#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// `sesame import --from-secret-service` against a real gnome-keyring on a
/// private session bus, judged by `secret-tool` on both providers (SPEC D9, D11).
@Suite("sesame import --from-secret-service", .serialized)
struct SecretServiceImportTests {
    static let secretTool = "/usr/bin/secret-tool"
    static let keyringDaemon = "/usr/bin/gnome-keyring-daemon"

    /// What is stored in gnome-keyring: label, attributes, secret. The second
    /// label has a control character, which the vault refuses (SPEC D9): it
    /// is skipped and reported, escaped.
    static let items: [(label: String, attributes: [String], secret: String)] = [
        ("Mail ✉ account", ["service", "mail-example", "user", "anä"], "pässwörd 1"),
        ("Bell\u{7}label", ["service", "bell-example"], "b3ll"),
        ("Notes", ["service", "notes-example", "note", "line1\u{1}line2"], "n0tes ü"),
    ]

    struct Report: Decodable {
        struct Collection: Decodable {
            var label: String
            var copied: Int
            var replaced: Int
            var kept: [Skipped]
            var skipped: [Skipped]
        }

        struct Skipped: Decodable {
            var label: String
            var reason: String
        }

        var copied: Int
        var replaced: Int
        var kept: Int
        var skipped: Int
        var collections: [Collection]
    }

    @Test("SPEC D2, D11: copies gnome-keyring's items with labels and attributes, leaves the source whole, a second import adds nothing, and Sesame on the bus is refused")
    func copiesFromGnomeKeyring() async throws {
        try Self.requireProviders()
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()

        let source = try await PrivateSessionBus.start()
        defer { source.stop() }
        let keyring = try await GnomeKeyring.start(source)
        defer { keyring.stop() }
        for item in Self.items {
            let stored = try await Self.secretTool(source, ["store", "--label=\(item.label)"] + item.attributes, input: item.secret)
            try #require(stored.status == 0, "\(stored.output)")
        }

        let environment = home.environment.merging(["DBUS_SESSION_BUS_ADDRESS": source.address]) { $1 }
        let first = try await SesameBinary.run(["import", "--from-secret-service", "--no-interaction", "--json"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(first.stdout.utf8))
        #expect(report.copied == 2 && report.replaced == 0 && report.skipped == 1, "\(first.stdout)")
        let skipped = report.collections.flatMap(\.skipped)
        #expect(skipped.map(\.label) == ["Bell\u{7}label"], "\(first.stdout)")
        for item in Self.items {
            #expect(!first.stdout.contains(item.secret) && !first.stderr.contains(item.secret), "a secret was printed")
        }

        // Twice: every copy replaces its earlier copy, nothing is added; the text report escapes the label.
        let second = try await SesameBinary.run(["import", "--from-secret-service", "--no-interaction"], environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("Copied 2 items (2 replacing an earlier copy); kept 0 items already protected in the vault; skipped 1 item."),
                "\(second.stderr)")
        #expect(second.stderr.contains("\"Bell\\alabel\""), "\(second.stderr)")
        #expect(!second.stderr.contains("\u{7}"), "a control character reached the terminal: \(second.stderr)")
        let listed = try await home.sesame(["ls", "--no-interaction"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = listed.stdout.split(separator: "\n").filter { $0.contains("secret-service/") }
        #expect(rows.count == 2, "\(listed.stdout)")

        // The source still has every item, with its secret.
        for item in Self.items {
            let lookup = try await Self.secretTool(source, ["lookup"] + item.attributes)
            #expect(lookup.status == 0 && lookup.output == item.secret, "gnome-keyring lost \(item.label.debugDescription): \(lookup.output)")
        }

        // The vault served as the Secret Service gives the same values, labels and attributes.
        let target = try await PrivateSessionBus.start()
        defer { target.stop() }
        let server = try await target.startDaemon(SesameBinary.url.path, ["secret-service", "--no-interaction"], environment: home.environment, log: "sesame.log")
        defer { server.stop() }
        try await Self.waitForProvider(target, server)
        for item in Self.items where item.label != "Bell\u{7}label" {
            let lookup = try await Self.secretTool(target, ["lookup"] + item.attributes)
            #expect(lookup.status == 0 && lookup.output == item.secret, "\(item.label.debugDescription): \(lookup.output)")
            let search = try await Self.secretTool(target, ["search", "--all"] + item.attributes)
            #expect(search.output.contains("label = \(item.label)"), "\(search.output)")
        }
        let notes = try await Self.secretTool(target, ["search", "--all", "service", "notes-example"])
        #expect(notes.output.contains("attribute.note = line1\u{1}line2"), "\(notes.output)")

        // Importing from Sesame serving this very vault is refused, and writes nothing.
        let itself = try await SesameBinary.run(["import", "--from-secret-service", "--no-interaction"],
                                                environment: home.environment.merging(["DBUS_SESSION_BUS_ADDRESS": target.address]) { $1 })
        #expect(itself.status == 2, "\(itself.stderr)")
        #expect(itself.stderr.contains("Sesame serving this vault"), "\(itself.stderr)")

        // A locked source with --no-interaction: nothing copied, every item reported as locked.
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/gdbus"), "needs gdbus (libglib2.0-bin) to lock the keyring")
        let locked = try await source.run("/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets",
            "--method", "org.freedesktop.Secret.Service.Lock", "['/org/freedesktop/secrets/collection/login']",
        ])
        try #require(locked.status == 0, "\(locked.output)")
        let third = try await SesameBinary.run(["import", "--from-secret-service", "--no-interaction", "--json"], environment: environment)
        #expect(third.status == 0, "\(third.stderr)")
        let lockedReport = try JSONDecoder().decode(Report.self, from: Data(third.stdout.utf8))
        #expect(lockedReport.copied == 0 && lockedReport.skipped == 3, "\(third.stdout)")
        #expect(lockedReport.collections.flatMap(\.skipped).allSatisfy { $0.reason.contains("locked") }, "\(third.stdout)")
    }

    @Test("SPEC D11: an item the owner protected is kept, not replaced by gnome-keyring's equal one (the generic schema's name aside), under --no-interaction and without it")
    func protectedItemIsKept() async throws {
        try Self.requireProviders()
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        let attributes = ["service", "mail-example", "user", "ana"]

        // The owner's item, behind the device passcode, stored through Sesame's own Secret Service.
        let target = try await PrivateSessionBus.start()
        defer { target.stop() }
        do {
            let server = try await target.startDaemon(SesameBinary.url.path, ["secret-service", "--no-interaction", "--default-access", "device-passcode"],
                                                      environment: home.environment, log: "sesame.log")
            defer { server.stop() }
            try await Self.waitForProvider(target, server)
            let stored = try await Self.secretTool(target, ["store", "--label=Mail (protected)"] + attributes, input: "owner's value")
            try #require(stored.status == 0, "\(stored.output)")
        }

        let source = try await PrivateSessionBus.start()
        defer { source.stop() }
        let keyring = try await GnomeKeyring.start(source)
        defer { keyring.stop() }
        // With the generic schema's name, as gnome-keyring reports an item
        // stored without one after reloading its file: the same item.
        let stored = try await Self.secretTool(source, ["store", "--label=Mail", "xdg:schema", "org.freedesktop.Secret.Generic"] + attributes,
                                               input: "keyring value")
        try #require(stored.status == 0, "\(stored.output)")

        let environment = home.environment.merging(["DBUS_SESSION_BUS_ADDRESS": source.address]) { $1 }
        for flags in [["--no-interaction"], []] {
            let run = try await SesameBinary.run(["import", "--from-secret-service", "--json"] + flags, environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
            #expect(report.copied == 0 && report.replaced == 0 && report.kept == 1, "\(run.stdout)")
            let kept = report.collections.flatMap(\.kept)
            #expect(kept.first?.reason.contains("protected") == true && kept.first?.reason.contains("kept") == true, "\(run.stdout)")
        }
        // Still one item, still behind the passcode: served again, it stays locked and its value unread.
        let listed = try await home.sesame(["ls", "--json", "--no-interaction"])
        #expect(listed.stdout.components(separatedBy: "secret-service/").count == 2, "\(listed.stdout)")
        #expect(listed.stdout.contains("\"access\" : \"device-passcode\""), "the item lost its protection: \(listed.stdout)")
        let server = try await target.startDaemon(SesameBinary.url.path, ["secret-service", "--no-interaction"], environment: home.environment, log: "sesame2.log")
        defer { server.stop() }
        try await Self.waitForProvider(target, server)
        let lookup = try await Self.secretTool(target, ["lookup"] + attributes)
        #expect(lookup.status != 0 && !lookup.output.contains("keyring value"), "\(lookup.output)")
    }

    @Test("an import holds one secret at a time: six 10 MiB secrets peak less than three above one; one over 16 MiB is refused by name")
    func importIsItemByItem() async throws {
        try Self.requireProviders()
        let source = try await PrivateSessionBus.start()
        defer { source.stop() }
        let keyring = try await GnomeKeyring.start(source)
        defer { keyring.stop() }
        /// The import's peak resident size in KiB, as the kernel counted it for the child.
        func peak(_ home: VaultHome) async throws -> (kib: Int, stdout: String) {
            let script = """
                import json, os, resource, subprocess, sys
                run = subprocess.run(sys.argv[1:], capture_output=True, text=True)
                print(json.dumps({'status': run.returncode, 'peak': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, 'stdout': run.stdout, 'stderr': run.stderr}))
                """
            let environment = home.environment.merging(["DBUS_SESSION_BUS_ADDRESS": source.address]) { $1 }
            let measured = try await source.run(TestPython.path, ["-c", script, SesameBinary.url.path, "import", "--from-secret-service", "--no-interaction", "--json"],
                                                environment: environment)
            struct Outcome: Decodable { var status: Int32; var peak: Int; var stdout: String; var stderr: String }
            let outcome = try JSONDecoder().decode(Outcome.self, from: Data(measured.output.utf8))
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return (outcome.peak, outcome.stdout)
        }
        // secret-tool stops at 8 KiB ("password is too long"); python3-secretstorage stores any size.
        func storeLarge(_ label: String, _ attribute: String, bytes: Int) async throws {
            let script = """
                import secretstorage, sys
                connection = secretstorage.dbus_init()
                collection = secretstorage.get_default_collection(connection)
                collection.create_item(sys.argv[1], {'n': sys.argv[2]}, b'a' * int(sys.argv[3]))
                """
            let stored = try await source.run(TestPython.path, ["-c", script, label, attribute, String(bytes)])
            #expect(stored.status == 0, "python3-secretstorage did not store \(label): \(stored.output)")
        }
        // The baseline: one 10 MiB item. What one item costs (its copies on the bus, sealed, written) is paid once either way.
        try await storeLarge("big1", "1", bytes: 10 << 20)
        let baseHome = try VaultHome()
        defer { baseHome.remove() }
        try await baseHome.createVault()
        let base = try await peak(baseHome)
        for index in 2...6 { try await storeLarge("big\(index)", "\(index)", bytes: 10 << 20) }
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        let big = try await peak(home)
        let report = try JSONDecoder().decode(Report.self, from: Data(big.stdout.utf8))
        #expect(report.copied == 6, "\(big.stdout)")
        let growth = big.kib - base.kib
        #expect(growth < 30 * 1024, "five more 10 MiB secrets grew the peak by \(growth) KiB over \(base.kib) KiB (one)")

        // Over the vault's limit: refused by name, the rest copied again.
        try await storeLarge("Huge", "99", bytes: 17 << 20)
        let again = try await SesameBinary.run(["import", "--from-secret-service", "--no-interaction", "--json"],
                                               environment: home.environment.merging(["DBUS_SESSION_BUS_ADDRESS": source.address]) { $1 })
        let second = try JSONDecoder().decode(Report.self, from: Data(again.stdout.utf8))
        #expect(second.copied == 6 && second.replaced == 6, "\(again.stdout)")
        let refused = second.collections.flatMap(\.skipped)
        #expect(refused.count == 1 && refused.first?.label == "Huge" && refused.first?.reason.contains("16 MiB") == true, "\(again.stdout)")
    }

    /// A provider that answers what an import asks, with dates that are not
    /// the API's `t`: a double of ±inf or NaN, a negative int64 (jeepney).
    /// A provider that answers with whatever it is given: `dates` (a Python
    /// dict of item name to its `Created` variant), every collection and
    /// item path listed `listings` times.
    static func hostileProvider(dates: String, listings: Int = 1) -> String {
        """
        import math
        from jeepney import new_method_return, new_error, MessageType, HeaderFields
        from jeepney.io.blocking import open_dbus_connection
        from jeepney.bus_messages import message_bus
        conn = open_dbus_connection(bus='SESSION')
        conn.send_and_get_reply(message_bus.RequestName('org.freedesktop.secrets'))
        ROOT = '/org/freedesktop/secrets'
        COLL = ROOT + '/collection/hostile'
        dates = \(dates)
        LISTINGS = \(listings)
        items = {COLL + '/' + name: value for name, value in dates.items()}
        print('ready', flush=True)
        while True:
            msg = conn.receive()
            if msg.header.message_type != MessageType.method_call:
                continue
            path, member = msg.header.fields.get(HeaderFields.path), msg.header.fields.get(HeaderFields.member)
            args = msg.body
            def reply(sig, body): conn.send(new_method_return(msg, sig, body))
            if member == 'Get':
                name = args[1]
                if path == ROOT: reply('v', (('ao', [COLL] * LISTINGS),))
                elif name == 'Label': reply('v', (('s', 'Hostile'),))
                elif name == 'Items': reply('v', (('ao', list(items) * LISTINGS),))
                elif name == 'Locked': reply('v', (('b', False),))
                else: conn.send(new_error(msg, 'org.freedesktop.DBus.Error.InvalidArgs', 's', ('no',)))
            elif member == 'GetAll':
                name = path.rsplit('/', 1)[1]
                reply('a{sv}', ({'Label': ('s', 'date ' + name), 'Attributes': ('a{ss}', {'date': name}),
                                 'Created': items[path], 'Modified': ('t', 1700000000)},))
            elif member == 'OpenSession': reply('vo', (('s', ''), ROOT + '/session/1'))
            elif member == 'ReadAlias': reply('o', (COLL,))
            elif member == 'GetSecret': reply('(oayays)', ((ROOT + '/session/1', b'', b'value', 'text/plain'),))
            elif member == 'Close': reply('', ())
            else: conn.send(new_error(msg, 'org.freedesktop.DBus.Error.UnknownMethod', 's', (member,)))
        """
    }

    @Test("SPEC D9: a source's dates of inf, -inf, NaN or a negative number are reported and left out, never stored as 1970")
    func hostileDates() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let run = try await Self.importFrom(Self.hostileProvider(dates: """
            {'inf': ('d', math.inf), 'minusinf': ('d', -math.inf), 'nan': ('d', math.nan), 'negative': ('x', -5), 'fine': ('t', 1700000000)}
            """), into: home)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
        #expect(report.copied == 1 && report.skipped == 4, "\(run.stdout)")
        let skipped = report.collections.flatMap(\.skipped)
        #expect(Set(skipped.map(\.label)) == ["date inf", "date minusinf", "date nan", "date negative"], "\(run.stdout)")
        #expect(skipped.allSatisfy { $0.reason.contains("not seconds since 1970") }, "\(run.stdout)")
        let listed = try await home.sesame(["ls", "--json", "--no-interaction"])
        #expect(!listed.stdout.contains("1970-"), "a date became 1970: \(listed.stdout)")
    }

    @Test("SPEC D11: a provider that lists one collection and one item three times gives one copy, none counted as replacing another")
    func pathsListedTwice() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let run = try await Self.importFrom(Self.hostileProvider(dates: "{'fine': ('t', 1700000000)}", listings: 3), into: home)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
        #expect(report.copied == 1 && report.replaced == 0 && report.kept == 0 && report.skipped == 0, "\(run.stdout)")
        #expect(report.collections.count == 1, "\(run.stdout)")
        let listed = try await home.sesame(["ls", "--json", "--no-interaction"])
        #expect(listed.stdout.components(separatedBy: "date fine").count == 2, "one item: \(listed.stdout)")
    }

    /// Runs `sesame import --from-secret-service --json` into `home`'s new
    /// vault from `provider` (a Python script) on a private bus.
    private static func importFrom(_ provider: String, into home: VaultHome) async throws -> SesameBinary.Result {
        try #require(PrivateSessionBus.missingComponents.isEmpty, "needs \(PrivateSessionBus.missingComponents)")
        try #require(FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/jeepney"), "needs python3-jeepney")
        try await home.createVault()
        let source = try await PrivateSessionBus.start()
        defer { source.stop() }
        let daemon = try await source.startDaemon(TestPython.path, ["-c", provider], log: "provider.log")
        defer { daemon.stop() }
        var ready = false
        for _ in 0..<600 where !ready {
            ready = ((try? String(contentsOfFile: source.directory + "/provider.log", encoding: .utf8)) ?? "").contains("ready")
            if !ready { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(ready && daemon.isRunning, "the fake provider did not start")
        return try await SesameBinary.run(["import", "--from-secret-service", "--no-interaction", "--json"],
                                          environment: home.environment.merging(["DBUS_SESSION_BUS_ADDRESS": source.address]) { $1 })
    }

    @Test("FILE and --from-secret-service together are a usage error; no bus is reported as not available")
    func usage() async throws {
        let both = try await SesameBinary.run(["import", "export.sesame", "--from-secret-service"], environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"])
        #expect(both.status == 2, "\(both.stderr)")
        let noBus = try await SesameBinary.run(["import", "--from-secret-service"], environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"])
        #expect(noBus.status == 7, "\(noBus.stderr)")
        #expect(noBus.stderr.contains("DBUS_SESSION_BUS_ADDRESS is not set"), "\(noBus.stderr)")
    }

    /// secret-tool, gnome-keyring and a private bus, which every import suite here drives.
    private static func requireProviders() throws {
        try #require(FileManager.default.isExecutableFile(atPath: secretTool), "needs libsecret-tools")
        try #require(FileManager.default.isExecutableFile(atPath: keyringDaemon), "needs gnome-keyring")
        try #require(PrivateSessionBus.missingComponents.isEmpty, "needs \(PrivateSessionBus.missingComponents)")
    }

    /// Until a provider owns the name, secret-tool complains on its output.
    private static func waitForProvider(_ bus: PrivateSessionBus, _ daemon: PrivateSessionBus.Daemon) async throws {
        var ready = false
        for _ in 0..<600 where !ready {
            ready = try await secretTool(bus, ["lookup", "sesame-probe", "1"]).output.isEmpty
            if !ready { try await Task.sleep(for: .milliseconds(50)) }
        }
        let log = (try? String(contentsOfFile: bus.directory + "/keyring.log", encoding: .utf8)) ?? ""
        try #require(ready && daemon.isRunning, "the provider did not start: \(log)")
    }

    private static func secretTool(_ bus: PrivateSessionBus, _ arguments: [String], input: String? = nil) async throws -> (status: Int32, output: String) {
        guard let input else { return try await bus.run(secretTool, arguments) }
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try await bus.run("/bin/sh", ["-c", "printf %s \"$SESAME_TEST_INPUT\" | \(secretTool) \(quoted)"], environment: ["SESAME_TEST_INPUT": input])
    }
}
#endif
