import GRDB

/// The vault's tables, created by numbered migrations; the `format` value in
/// `meta` says which layout a file has, so an older Sesame refuses a newer
/// file instead of misreading it.
enum Schema {
    static let format = 1

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
        return migrator
    }
}
