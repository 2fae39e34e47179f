#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import GRDB

/// The vault's tables, created by numbered migrations; the `format` value in
/// `meta` says which layout a file has, so an older Sesame refuses a newer
/// file instead of misreading it. A change of layout is a new migration and
/// keeps the golden vault test (Tests/SesameTests/Golden) passing.
///
/// A migration's identifier starts with `v` and the format it brings the
/// file to ("v2-attempts" makes format 2): ``checkStructure(_:format:path:)``
/// holds the recorded migrations, the tables and `meta.format` against each
/// other, so a schema rolled back by hand is `tampered`, never re-created
/// fresh. From format 6 (``sealedFormat``) migrations need the master key
/// (they seal rows), run on the first write after unlocking (never on a
/// read: reads never write) and renew the format MAC, which is checked after
/// every unlock (``verifyFormat(_:subkeys:path:)``).
enum Schema {
    static let format = 7
    /// The first format whose rows are sealed (SPEC D9) and whose format record is MACed.
    static let sealedFormat = 6

    /// The migrations that run without the master key (every open may apply them).
    static var migrator: DatabaseMigrator { migrator(subkeys: nil) }

    /// Every migration; those from format 6 only when `subkeys` is given.
    static func migrator(subkeys: VaultSubkeys?) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta (name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
                CREATE TABLE slot (
                    kind TEXT PRIMARY KEY NOT NULL,
                    salt BLOB NOT NULL,
                    log2n INTEGER NOT NULL, r INTEGER NOT NULL, p INTEGER NOT NULL,
                    sealed BLOB NOT NULL
                );
                CREATE TABLE item (
                    id INTEGER PRIMARY KEY NOT NULL,
                    service TEXT NOT NULL,
                    account TEXT NOT NULL,
                    label TEXT,
                    accessibility TEXT NOT NULL,
                    access_control TEXT NOT NULL,
                    created REAL NOT NULL,
                    modified REAL NOT NULL,
                    wrappings BLOB NOT NULL,
                    commitment BLOB,
                    ciphertext BLOB NOT NULL,
                    mac BLOB NOT NULL,
                    UNIQUE (service, account)
                );
                CREATE TABLE setting (name TEXT PRIMARY KEY NOT NULL, sealed BLOB NOT NULL);
                """)
        }
        // Format 2: the passcode slot's attempt record lives in the vault
        // (SPEC E5), replacing the CLI's second hash beside it. A vault that
        // already has a passcode slot starts with a clean record.
        migrator.registerMigration("v2-attempts") { db in
            try db.execute(sql: """
                CREATE TABLE attempt (
                    subject TEXT PRIMARY KEY NOT NULL,
                    failures INTEGER NOT NULL,
                    delay_start REAL,
                    delay_duration REAL,
                    last_wrong BLOB
                );
                """)
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM slot WHERE kind = ?", arguments: [PasscodeSlotLedger.subject]) == true {
                // This format's columns only: later migrations add theirs.
                try db.execute(sql: "INSERT OR REPLACE INTO attempt (subject, failures) VALUES (?, 0)", arguments: [PasscodeSlotLedger.subject])
            }
            try db.execute(sql: "UPDATE meta SET value = ? WHERE name = 'format'", arguments: [Data("2".utf8)])
        }
        // Format 3: protected keys (SPEC D7), a table of their own so that no
        // API that reads items can ever reach a private key. The columns are
        // an item's (the value is the sealed private key) plus the algorithm
        // and the public key. Created when the first key is made; a vault
        // without it simply has no keys.
        migrator.registerMigration("v3-keys") { db in
            try db.execute(sql: """
                CREATE TABLE key (
                    id INTEGER PRIMARY KEY NOT NULL,
                    service TEXT NOT NULL,
                    account TEXT NOT NULL,
                    label TEXT,
                    accessibility TEXT NOT NULL,
                    access_control TEXT NOT NULL,
                    created REAL NOT NULL,
                    modified REAL NOT NULL,
                    wrappings BLOB NOT NULL,
                    commitment BLOB,
                    ciphertext BLOB NOT NULL,
                    mac BLOB NOT NULL,
                    algorithm TEXT NOT NULL,
                    public_key BLOB NOT NULL,
                    UNIQUE (service, account)
                );
                """)
            try db.execute(sql: "UPDATE meta SET value = ? WHERE name = 'format'", arguments: [Data("3".utf8)])
        }
        // Format 4: delays are measured on the kernel's boot clock (SPEC E3),
        // and attempts being checked are kept apart from settled wrong ones
        // (SPEC E5). An old record keeps its count (attempts it had in flight
        // stay counted as wrong) and its delay has no boot-clock start: the
        // gate restarts such a delay in full, never shortens it.
        migrator.registerMigration("v4-attempt-clock") { db in
            try db.execute(sql: """
                ALTER TABLE attempt ADD COLUMN delay_boot_id TEXT;
                ALTER TABLE attempt ADD COLUMN delay_boot_uptime REAL;
                CREATE TABLE attempt_in_flight (
                    subject TEXT NOT NULL,
                    token INTEGER NOT NULL,
                    pid INTEGER NOT NULL,
                    started REAL NOT NULL,
                    boot_id TEXT,
                    boot_uptime REAL,
                    PRIMARY KEY (subject, token)
                );
                """)
            // A main-line format 5 file (v5 merged before v4) gets v4 after v5: it stays format 5.
            if try formatRecorded(db) < 4 {
                try db.execute(sql: "UPDATE meta SET value = ? WHERE name = 'format'", arguments: [Data("4".utf8)])
            }
        }
        // Format 5: a protected key's constraints (SPEC D8, `ssh-add -t`/`-c`)
        // are stored with it, sealed and covered by its row's MAC, so they
        // hold in every process and across agent restarts. NULL: none. An
        // older Sesame refuses the file rather than use a key unconstrained.
        migrator.registerMigration("v5-key-constraints") { db in
            try db.execute(sql: "ALTER TABLE key ADD COLUMN constraints BLOB")
            try db.execute(sql: "UPDATE meta SET value = ? WHERE name = 'format'", arguments: [Data("5".utf8)])
        }
        // From here on every migration needs the master key: none runs before unlock.
        guard let subkeys else { return migrator }
        // Format 6: names, labels, protection and dates sealed, rows found
        // by keyed hash (SPEC D9); the format record MACed.
        migrator.registerMigration(sealedAttributesMigration) { db in
            try sealRows(db, table: "item", subkeys: subkeys)
            if try db.tableExists("key") { try sealRows(db, table: "key", subkeys: subkeys) }
            try db.execute(sql: "UPDATE meta SET value = ? WHERE name = 'format'", arguments: [Data("6".utf8)])
            try sealFormat(db, format: 6, subkeys: subkeys, adding: sealedAttributesMigration)
        }
        // Format 7: the Secret Service view (SPEC D10). Collections and
        // aliases are sealed records (their labels and names are names, D9);
        // items stay in `item`, their attributes sealed with the rest
        // (``SealedAttributes`` version 2), and `attribute_index` maps keyed
        // hashes of attribute pairs, collections and "is a Secret Service
        // item" to row ids, so a search reads only the rows that match.
        migrator.registerMigration(secretServiceMigration) { db in
            try db.execute(sql: """
                CREATE TABLE collection (
                    id TEXT PRIMARY KEY NOT NULL,
                    sealed BLOB NOT NULL
                );
                CREATE TABLE collection_alias (
                    lookup BLOB PRIMARY KEY NOT NULL,
                    sealed BLOB NOT NULL
                );
                CREATE TABLE attribute_index (
                    hash BLOB NOT NULL,
                    item INTEGER NOT NULL,
                    PRIMARY KEY (hash, item)
                ) WITHOUT ROWID;
                CREATE INDEX attribute_index_item ON attribute_index (item);
                """)
            try db.execute(sql: "UPDATE meta SET value = ? WHERE name = 'format'", arguments: [Data("7".utf8)])
            try sealFormat(db, format: 7, subkeys: subkeys, adding: secretServiceMigration)
        }
        return migrator
    }

    static let sealedAttributesMigration = "v6-sealed-attributes"
    static let secretServiceMigration = "v7-secret-service"

    /// Rewrites `table` from the clear layout to the sealed one. Every row's
    /// MAC is checked first: a tampered row stops the upgrade (and the write
    /// that wanted it) rather than being sealed as genuine. The old table's
    /// pages are zeroed as they are freed (`secure_delete`, set on every writer).
    static func sealRows(_ db: Database, table: String, subkeys: VaultSubkeys) throws {
        guard try !ItemRow.isSealed(db, table: table) else { return }
        var rows: [ItemRow] = []
        for row in try Row.fetchAll(db, sql: "SELECT \(ItemRow.selectedColumns(of: table)) FROM \(table)") {
            var item = try ItemRow(row)
            guard subkeys.verify(item) else {
                throw VaultError(.tampered, "\(item.name) failed its integrity check, so the vault cannot be upgraded to sealed names; Sesame does not repair it")
            }
            item.lookup = subkeys.lookup(table: table, service: item.service, account: item.account)
            item.mac = subkeys.mac(item)
            rows.append(item)
        }
        try db.execute(sql: """
            CREATE TABLE \(table)_sealed (
                id INTEGER PRIMARY KEY NOT NULL,
                lookup BLOB NOT NULL UNIQUE,
                attributes BLOB NOT NULL,
                wrappings BLOB NOT NULL,
                commitment BLOB,
                ciphertext BLOB NOT NULL,
                mac BLOB NOT NULL
            );
            """)
        for row in rows { try row.insert(db, subkeys: subkeys, into: table + "_sealed") }
        try db.execute(sql: "DROP TABLE \(table)")
        try db.execute(sql: "ALTER TABLE \(table)_sealed RENAME TO \(table)")
    }

    // MARK: The format, authenticated

    /// The format a migration brings the file to: the number after its `v`.
    static func format(of identifier: String) -> Int? {
        guard identifier.hasPrefix("v") else { return nil }
        return Int(identifier.dropFirst().prefix { $0.isNumber })
    }

    /// Every registered migration, keyed ones included.
    static var identifiers: [String] {
        migrator(subkeys: VaultSubkeys(masterKey: SymmetricKey(size: .bits256), vaultID: [])).migrations
    }

    static func appliedMigrations(_ db: Database) throws -> [String] {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
    }

    /// Refuses a file whose recorded migrations, tables and `meta.format`
    /// disagree: a table dropped with its migration row (which would be
    /// re-created fresh), a lowered format, a sealed table in a file that
    /// claims an older format. Needs no key, so it runs before unlocking and
    /// before any migration.
    ///
    /// - Throws: ``VaultError`` `tampered`.
    static func checkStructure(_ db: Database, format: Int, path: String) throws {
        let applied = Set(try appliedMigrations(db))
        let attemptClockLater = isMainLineFormat5(format: format, applied: applied)
        for identifier in identifiers {
            guard let brings = Self.format(of: identifier) else { continue }
            if attemptClockLater && identifier == attemptClockMigration { continue }
            if brings <= format, !applied.contains(identifier) {
                throw VaultError(.tampered, "\(path) claims format \(format) but lacks its migration \(identifier): its schema was rolled back by hand. Sesame does not repair it")
            }
            if brings > format, applied.contains(identifier) {
                throw VaultError(.tampered, "\(path) records migration \(identifier) (format \(brings)) but claims format \(format): its format was lowered by hand. Sesame does not repair it")
            }
        }
        let tables: [(name: String, since: Int)] = [("attempt", 2), ("key", 3), ("attempt_in_flight", 4),
                                                    ("collection", 7), ("collection_alias", 7), ("attribute_index", 7)]
        for table in tables where format >= table.since && !(attemptClockLater && table.name == "attempt_in_flight") {
            guard try db.tableExists(table.name) else {
                throw VaultError(.tampered, "\(path) claims format \(format) but has no \(table.name) table: it was dropped by hand. Sesame does not repair it")
            }
        }
        for table in ["item", "key"] where try db.tableExists(table) {
            guard try ItemRow.isSealed(db, table: table) == (format >= sealedFormat) else {
                throw VaultError(.tampered, "\(path) claims format \(format) but its \(table) table is laid out for another one: it was edited by hand")
            }
        }
    }

    static let attemptClockMigration = "v4-attempt-clock"

    /// A genuine history, not a rollback: on the main line v5-key-constraints
    /// was merged (aff17b9) before v4-attempt-clock (7f1c5a3), so vaults of
    /// that time record format 5 with v1, v2, v3 and v5 only. Their v4 runs
    /// at the next migration, after v5, and leaves the format at 5.
    static func isMainLineFormat5(format: Int, applied: Set<String>) -> Bool {
        format == 5 && applied.contains("v5-key-constraints") && !applied.contains(attemptClockMigration)
    }

    /// `meta.format` as the file records it (0 when unreadable).
    static func formatRecorded(_ db: Database) throws -> Int {
        try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format'").flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
    }

    /// Stores the MAC of `format` and the applied migrations (plus `adding`,
    /// the migration being applied, recorded by GRDB in the same transaction).
    static func sealFormat(_ db: Database, format: Int, subkeys: VaultSubkeys, adding: String? = nil) throws {
        let migrations = try appliedMigrations(db) + (adding.map { [$0] } ?? [])
        try db.execute(sql: "INSERT OR REPLACE INTO meta (name, value) VALUES ('format-mac', ?)",
                       arguments: [Data(subkeys.formatMAC(format: format, migrations: migrations))])
    }

    /// Checks the format MAC after unlocking: from format 6 a file whose
    /// format or migration list was changed by hand, or whose MAC is
    /// missing, is `tampered`. Older files have no MAC (their structure is
    /// checked by ``checkStructure(_:format:path:)``).
    static func verifyFormat(_ db: Database, subkeys: VaultSubkeys, path: String) throws {
        guard let format = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format'")
            .flatMap({ Int(String(decoding: $0, as: UTF8.self)) }), format >= sealedFormat else { return }
        let stored = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format-mac'").map { Array($0) } ?? []
        guard ConstantTime.equals(stored, subkeys.formatMAC(format: format, migrations: try appliedMigrations(db))) else {
            throw VaultError(.tampered, "\(path): its format record (format \(format) and its migrations) fails its integrity check: it was edited by hand. Sesame does not repair it")
        }
    }
}
