#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// The vault's tables, created by numbered migrations; the `format` value in
/// `meta` says which layout a file has, so an older Sesame refuses a newer
/// file instead of misreading it. A change of layout is a new migration and
/// keeps the golden vault test (Tests/SesameTests/Golden) passing.
enum Schema {
    static let format = 5

    static var migrator: DatabaseMigrator {
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
            try db.execute(sql: "UPDATE meta SET value = ? WHERE name = 'format'", arguments: [Data("4".utf8)])
        }
        // Format 5: a protected key's constraints (SPEC D8, `ssh-add -t`/`-c`)
        // are stored with it, sealed and covered by its row's MAC, so they
        // hold in every process and across agent restarts. NULL: none. An
        // older Sesame refuses the file rather than use a key unconstrained.
        migrator.registerMigration("v5-key-constraints") { db in
            try db.execute(sql: "ALTER TABLE key ADD COLUMN constraints BLOB")
            try db.execute(sql: "UPDATE meta SET value = ? WHERE name = 'format'", arguments: [Data("5".utf8)])
        }
        return migrator
    }
}
