import Foundation
import GRDB
import Testing

/// SPEC D9 ("a copied vault tells a lot"): a copy of a
/// passcode-only vault shows no service, name, label or date in its bytes,
/// while `sesame ls` still shows them to its owner.
@Suite("sesame: a copied vault shows no names, labels or dates (SPEC D9)")
struct SealedMetadataCommandTests {
    private let place: VaultHome
    private let passcode = "482913 sealed"

    init() throws {
        place = try VaultHome()
    }

    /// Every byte sequence a stored date `at` could be written as: an
    /// SQLite REAL (big-endian IEEE double; its first five bytes pin it to
    /// four seconds), an SQLite integer (REAL values without a fraction are
    /// stored so, big-endian), and the decimal seconds as text.
    private static func encodings(ofSecond second: Int) -> [[UInt8]] {
        let double = withUnsafeBytes(of: Double(second).bitPattern.bigEndian) { Array($0) }
        let integer = withUnsafeBytes(of: UInt32(second).bigEndian) { Array($0) }
        return [Array(double.prefix(5)), integer, Array(String(second).utf8)]
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    @Test("SPEC D9: after put and git-credential store, no file in the vault directory (vault, -wal, -shm) holds a service, name, label or date")
    func copiedVaultShowsNothing() async throws {
        defer { place.remove() }
        let created = try await place.sesame(["init", "--passcode-only", "--scrypt-log2n", "10", "--passcode-fd", "3", "--no-interaction"],
                                             secret: passcode)
        try #require(created.status == 0, "\(created.stderr)")
        let start = Int(Date().timeIntervalSince1970)
        let put = try await place.sesame(["put", "prod-database-password", "--service", "acme-payroll", "--label", "Quarterly payroll DB",
                                          "--passcode-fd", "3", "--no-interaction"], stdin: Data("hunter2-value".utf8), secret: passcode)
        #expect(put.status == 0, "\(put.stderr)")
        let input = Data("protocol=https\nhost=gitlab.com\npath=org/repo.git\nusername=jdoe-deploy\npassword=glpat-secret-token\n".utf8)
        let stored = try await place.sesame(["git-credential", "store", "--passcode-fd", "3", "--no-interaction"], stdin: input, secret: passcode)
        #expect(stored.status == 0, "\(stored.stderr)")
        let end = Int(Date().timeIntervalSince1970) + 1

        // The owner still sees every name (ls decrypts them after unlocking).
        let listed = try await place.sesame(["ls", "--passcode-fd", "3", "--no-interaction"], secret: passcode)
        #expect(listed.status == 0, "\(listed.stderr)")
        for shown in ["acme-payroll", "prod-database-password", "gitlab.com/org/repo", "jdoe-deploy"] {
            #expect(listed.stdout.contains(shown), "ls shows \(shown): \(listed.stdout)")
        }

        let directory = (place.vault as NSString).deletingLastPathComponent
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("test.sqlite") }
        #expect(files.contains("test.sqlite") && files.contains("test.sqlite-wal"), "\(files)")
        var bytes: [String: [UInt8]] = [:]
        for file in files { bytes[file] = Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))) }
        #expect(bytes.values.contains { !$0.isEmpty })
        let names = ["acme-payroll", "prod-database-password", "Quarterly payroll", "gitlab", "org/repo", "jdoe-deploy", "https://"]
        let whenUnlocked = ["whenUnlocked", "when-unlocked"]
        for (file, content) in bytes {
            for name in names + whenUnlocked {
                #expect(!Self.contains(content, Array(name.utf8)), "\(file) shows \"\(name)\"")
            }
            for second in start...end {
                for encoding in Self.encodings(ofSecond: second) {
                    #expect(!Self.contains(content, encoding), "\(file) shows the date \(second) as \(encoding)")
                }
            }
        }
    }
}

/// SPEC E5: "dropping the `attempt` table together with its migration row
/// re-creates a fresh record and quietly lowers the format". A schema rolled
/// back by hand is tampered: exit 9, and no fresh record is made.
@Suite("sesame: a vault schema rolled back by hand exits 9 (tampered)")
struct RolledBackSchemaCommandTests {
    private let place: VaultHome
    private let passcode = "482913 schema"

    init() throws {
        place = try VaultHome()
    }

    @Test("SPEC E5: the attempt table dropped with its grdb_migrations row, or meta.format lowered: get exits 9, the passcode is not checked",
          arguments: [["DROP TABLE attempt", "DELETE FROM grdb_migrations WHERE identifier = 'v2-attempts'"],
                      ["UPDATE meta SET value = CAST('2' AS BLOB) WHERE name = 'format'"]])
    func rolledBack(edits: [String]) async throws {
        defer { place.remove() }
        let created = try await place.sesame(["init", "--passcode-only", "--scrypt-log2n", "10", "--passcode-fd", "3", "--no-interaction"],
                                             secret: passcode)
        try #require(created.status == 0, "\(created.stderr)")
        let put = try await place.sesame(["put", "db", "--passcode-fd", "3", "--no-interaction"], stdin: Data("v".utf8), secret: passcode)
        try #require(put.status == 0, "\(put.stderr)")
        let raw = try DatabaseQueue(path: place.vault)
        try await raw.write { db in for edit in edits { try db.execute(sql: edit) } }
        try raw.close()
        for wrong in ["wrong 1", passcode] {
            let got = try await place.sesame(["get", "db", "--passcode-fd", "3", "--no-interaction"], secret: wrong)
            #expect(got.status == 9, "\(got.stderr)")
            #expect(got.output.isEmpty)
        }
        let check = try DatabaseQueue(path: place.vault)
        #expect(try await check.read { db in try db.tableExists("attempt") } == !edits[0].hasPrefix("DROP"), "no fresh attempt record")
        try check.close()
    }
}
