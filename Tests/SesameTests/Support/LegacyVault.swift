import Foundation
import GRDB
@testable import Sesame

/// Turns an empty vault into the layout of an older format, as an older
/// Sesame made it: the tables, migration rows and `meta.format` agree (a
/// file rolled back by hand on one of them alone is `tampered`, SPEC D9).
/// Items and keys are not converted back (that needs the master key): they
/// are dropped.
enum LegacyVault {
    static func rollBack(_ db: Database, to format: Int) throws {
        precondition(format < Schema.sealedFormat)
        let columns = """
            id INTEGER PRIMARY KEY NOT NULL, service TEXT NOT NULL, account TEXT NOT NULL, label TEXT,
            accessibility TEXT NOT NULL, access_control TEXT NOT NULL, created REAL NOT NULL, modified REAL NOT NULL,
            wrappings BLOB NOT NULL, commitment BLOB, ciphertext BLOB NOT NULL, mac BLOB NOT NULL
            """
        try db.execute(sql: "DROP TABLE item")
        try db.execute(sql: "CREATE TABLE item (\(columns), UNIQUE (service, account))")
        try db.execute(sql: "DROP TABLE IF EXISTS key")
        if format >= 3 {
            // Format 5 added the constraints column (v5-key-constraints).
            let constraints = format >= 5 ? ", constraints BLOB" : ""
            try db.execute(sql: "CREATE TABLE key (\(columns), algorithm TEXT NOT NULL, public_key BLOB NOT NULL\(constraints), UNIQUE (service, account))")
        }
        if format < 2 {
            try db.execute(sql: "DROP TABLE attempt")
        } else if format < 4 {
            // The attempt table as format 2 made it (format 4 adds columns).
            try db.execute(sql: "ALTER TABLE attempt RENAME TO attempt_later")
            try db.execute(sql: "CREATE TABLE attempt (subject TEXT PRIMARY KEY NOT NULL, failures INTEGER NOT NULL, delay_start REAL, delay_duration REAL, last_wrong BLOB)")
            try db.execute(sql: "INSERT INTO attempt SELECT subject, failures, delay_start, delay_duration, last_wrong FROM attempt_later")
            try db.execute(sql: "DROP TABLE attempt_later")
        }
        // Tables of later formats.
        var known: Set<String> = ["meta", "slot", "item", "key", "setting", "attempt", "grdb_migrations"]
        if format >= 4 { known.insert("attempt_in_flight") }
        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") where !known.contains(table) {
            try db.execute(sql: "DROP TABLE \(table)")
        }
        for identifier in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") where (Schema.format(of: identifier) ?? 0) > format {
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [identifier])
        }
        try db.execute(sql: "DELETE FROM meta WHERE name = 'format-mac'")
        try db.execute(sql: "UPDATE meta SET value = ? WHERE name = 'format'", arguments: [Data(String(format).utf8)])
    }
}
