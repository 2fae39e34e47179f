#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing

/// A browser keeps its Safe Storage key in Sesame as it does in
/// gnome-keyring: Debian's Chromium, with `--password-store=gnome-libsecret`,
/// headless, against `sesame secret-service` on a vault (SPEC D10, D13).
@Suite("Secret Service: Chromium's Safe Storage key", .serialized)
struct ChromiumSafeStorageTests {
    static let chromium = "/usr/bin/chromium"

    /// A page that sets a cookie on its first load and shows it on the next.
    static let page = """
        <html><body><script>
        if (!document.cookie.includes("kept=")) { document.cookie = "kept=cookie-value; max-age=86400; path=/"; document.title = "set"; }
        else { document.title = "got " + document.cookie; }
        </script></body></html>
        """

    @Test("D10, D13: Chromium makes its Safe Storage key (recorded as Chromium's), encrypts its cookies with it (v11) and reads them back in a new run")
    func safeStorage() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.chromium), "needs chromium")
        let home = try VaultHome()
        defer { home.remove() }
        try await home.createVault()
        let bus = try await PrivateSessionBus.start()
        defer { bus.stop() }
        let server = try await bus.startDaemon(SesameBinary.url.path, ["secret-service", "--no-interaction"], environment: home.environment, log: "sesame.log")
        defer { server.stop() }
        try #require(try await SecretTool.waitForProvider(bus) && server.isRunning, "sesame secret-service did not start")

        let site = home.file("site")
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        try Self.page.write(toFile: site + "/index.html", atomically: true, encoding: .utf8)
        // A web server on a port of its own choosing, which it prints.
        let web = try await bus.startDaemon(TestPython.path, ["-u", "-c", """
            import http.server, functools, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            server = http.server.HTTPServer(('127.0.0.1', 0), handler)
            print('port', server.server_address[1], flush=True)
            server.serve_forever()
            """, site], log: "web.log")
        defer { web.stop() }
        var port = ""
        for _ in 0..<1200 where port.isEmpty {
            let log = (try? String(contentsOfFile: bus.directory + "/web.log", encoding: .utf8)) ?? ""
            port = log.split(separator: "\n").first { $0.hasPrefix("port ") }.map { String($0.dropFirst(5)) } ?? ""
            if port.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
        }
        try #require(!port.isEmpty, "the web server did not start")

        let profile = home.file("chromium-profile")
        func browse() async throws -> String {
            // As root (CI) Chromium needs --no-sandbox; the profile is a new one of the test's.
            let run = try await bus.run(Self.chromium, ["--headless=new", "--no-sandbox", "--password-store=gnome-libsecret", "--no-first-run",
                                                        "--user-data-dir=\(profile)", "--dump-dom", "http://127.0.0.1:\(port)/"],
                                        environment: ["HOME": home.home], timeout: .seconds(60))
            return run.output.firstMatch(of: /<title>([^<]*)<\/title>/).map { String($0.1) } ?? "no title: \(run.output.suffix(2000))"
        }
        #expect(try await browse() == "set")
        let listed = try await home.sesame(["ls", "--json", "--no-interaction"])
        #expect(listed.stdout.contains(#""label" : "Chromium Safe Storage""#), "\(listed.stdout)")
        #expect(listed.stdout.contains(#""app" : "/usr/lib/chromium/chromium""#), "\(listed.stdout)")

        // v11: encrypted under the key from the Secret Service (v10 would be Chromium's fixed fallback key).
        let cookies = try await bus.run(TestPython.path, ["-c", """
            import sqlite3, sys
            print([bytes(row[0][:3]).decode() for row in sqlite3.connect(sys.argv[1]).execute("select encrypted_value from cookies where name = 'kept'")])
            """, profile + "/Default/Cookies"])
        #expect(cookies.output.trimmingCharacters(in: .whitespacesAndNewlines) == "['v11']", "\(cookies.output)")
        #expect(try await browse() == "got kept=cookie-value")
    }
}
#endif
