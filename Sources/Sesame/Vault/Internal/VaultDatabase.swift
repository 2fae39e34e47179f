#if canImport(GRDBSQLite)
import GRDBSQLite
#elseif canImport(SQLite3)
import SQLite3
#endif
import GRDB
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The SQLite connections to one vault file in this process, shared by every
/// ``Vault`` on it: reads that never write, and a writer opened only when
/// something is written.
///
/// Reads go through a read-only connection whose shared-memory index is
/// mapped read-only (`readonly_shm`), so a `get`, `ls` or `status` changes
/// no byte of the vault's files and syncs nothing. That needs the `-wal` and
/// `-shm` files to exist, so writers keep them (`SQLITE_FCNTL_PERSIST_WAL`)
/// instead of creating and deleting them in every process; a vault without
/// them (written by an older Sesame, or copied) is read through the writer
/// once, which creates them.
///
/// SQLite shares one shared-memory mapping per file and process: while the
/// read-only one exists, no connection in the process can write. So the
/// first write closes the reader and everything goes through the writer from
/// then on, and every ``Vault`` on a file shares this object
/// (``shared(_:)``).
final class VaultDatabase: Sendable {
    let path: String
    private let state = Locked(State())
    /// The schema version each connection last saw (see ``fresh(_:)``). Its
    /// own lock: `state`'s is held while a connection is closed, which waits
    /// for that connection's transaction, the one that asks here.
    private let schemaVersions = Locked<[ObjectIdentifier: Int32]>([:])

    private struct State {
        var reader: DatabaseQueue?
        var writer: DatabaseQueue?
    }

    private init(path: String) {
        self.path = path
    }

    deinit {
        // Close here, not in SQLite's finalizer order, so the reader's
        // read-only mapping is gone before another object opens a writer.
        state.withLock { state in
            try? state.reader?.close()
            try? state.writer?.close()
        }
    }

    // MARK: One object per file

    private struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private final class WeakBox: @unchecked Sendable {
        weak var database: VaultDatabase?
        init(_ database: VaultDatabase) { self.database = database }
    }

    private static let registry = Locked<[FileID: WeakBox]>([:])

    /// The connections to the existing file at `path`, shared with every
    /// other user of the same file (device and inode) in this process.
    static func shared(_ path: String) throws(VaultError) -> VaultDatabase {
        let identity: (device: UInt64, inode: UInt64)
        do throws(PrivateFile.Failure) {
            identity = try PrivateFile.identity(of: path)
        } catch {
            throw PrivateFiles.vaultError(error)
        }
        let id = FileID(device: identity.device, inode: identity.inode)
        return registry.withLock { registry in
            if let existing = registry[id]?.database { return existing }
            registry = registry.filter { $0.value.database != nil }
            let database = VaultDatabase(path: path)
            registry[id] = WeakBox(database)
            return database
        }
    }

    // MARK: Access

    /// Runs `body` in a read transaction. Never writes when the vault has its
    /// WAL companions and nothing in this process has written to it.
    func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        while true {
            let connection = try readingConnection()
            do {
                return try await connection.read(fresh(body))
            } catch let error as DatabaseError where Self.needsWriterToRead(error) {
                // The shared-memory index looked torn to a connection that may
                // not rebuild it: another process was mid-write or mid-close
                // (SQLite reports READONLY_RECOVERY even when the writer has
                // just finished), or it was left damaged. The writer waits its
                // turn and rebuilds it if need be; this process reads through
                // the writer from now on.
                try useWriter(insteadOf: connection)
            } catch {
                // A write elsewhere in the process closed the reader meanwhile: read again.
                let replaced = state.withLock { $0.reader !== connection && $0.writer !== connection }
                guard replaced else { throw error }
            }
        }
    }

    /// Runs `body` in an `IMMEDIATE` transaction, committed durably.
    func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await writer().write(fresh(body))
    }

    /// `body`, after forgetting GRDB's cached schema of this connection when
    /// another process (or connection) changed the schema since it last
    /// looked: a long-lived reader (the agent) must see the tables that
    /// another process's upgrade re-laid (SPEC D9), not the ones it cached.
    /// GRDB does this for pools, not for the queues the vault uses.
    private func fresh<Value>(_ body: @escaping @Sendable (Database) throws -> Value) -> @Sendable (Database) throws -> Value {
        { [schemaVersions] db in
            let version = try db.schemaVersion()
            let key = ObjectIdentifier(db)
            let changed = schemaVersions.withLock { versions -> Bool in
                defer { versions[key] = version }
                return versions[key].map { $0 != version } ?? true
            }
            if changed { db.clearSchemaCache() }
            return try body(db)
        }
    }

    /// Applies the schema's migrations that the file lacks (a write when
    /// any): with `subkeys`, also those that need the master key (format 6
    /// on). A file whose recorded schema disagrees with its format is
    /// `tampered` and nothing runs (a dropped table is never re-created).
    /// After sealing rows, the WAL is emptied so that the clear pages it may
    /// still hold are gone too.
    func migrate(subkeys: VaultSubkeys? = nil) throws {
        let writer = try writer()
        let sealing = try writer.read { db throws -> Bool in
            guard try db.tableExists("meta"),
                  let format = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'format'").flatMap({ Int(String(decoding: $0, as: UTF8.self)) })
            else { return false }
            try Schema.checkStructure(db, format: format, path: path)
            return subkeys != nil && format < Schema.sealedFormat
        }
        do {
            try Schema.migrator(subkeys: subkeys).migrate(writer)
        } catch is DatabaseError {
            // Another process applied the same migration between GRDB's look
            // at the applied list and our transaction: its run won, ours
            // rolled back. Looking again finds nothing left to do (or the
            // real error again).
            try Schema.migrator(subkeys: subkeys).migrate(writer)
        }
        if sealing {
            try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
    }

    /// Makes a new, empty file a WAL database, before its tables exist.
    func useWriteAheadLog() throws {
        try writer().writeWithoutTransaction { db in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw VaultError(.ioError, "\(path): SQLite refused write-ahead logging")
            }
        }
    }

    private func readingConnection() throws -> DatabaseQueue {
        try state.withLock { state in
            if let connection = state.writer ?? state.reader { return connection }
            if let reader = try Self.openReader(path) {
                state.reader = reader
                return reader
            }
            let writer = try Self.openWriter(path)
            state.writer = writer
            return writer
        }
    }

    /// Whether `error` is a read-only connection's refusal to rebuild the
    /// shared-memory index, which a writer would rebuild.
    static func needsWriterToRead(_ error: DatabaseError) -> Bool {
        error.extendedResultCode == .SQLITE_READONLY_RECOVERY || error.extendedResultCode == .SQLITE_READONLY_CANTINIT
    }

    /// Closes `reader` if it is still this file's reader, so the next read goes
    /// through the writer.
    private func useWriter(insteadOf reader: DatabaseQueue) throws {
        let wasReader = state.withLock { $0.reader === reader }
        guard wasReader else { return }
        _ = try writer()
    }

    private func writer() throws -> DatabaseQueue {
        try state.withLock { state in
            if let writer = state.writer { return writer }
            // The read-only mapping must be gone before a writer maps the file.
            try state.reader?.close()
            state.reader = nil
            let writer = try Self.openWriter(path)
            state.writer = writer
            return writer
        }
    }

    // MARK: Opening

    private static func configuration(readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.busyMode = .timeout(Vault.busyTimeout)
        configuration.label = readonly ? "Sesame vault reader" : "Sesame vault"
        // The file is in WAL mode already (or made so by `useWriteAheadLog`):
        // nothing to set up on opening, so opening writes nothing.
        configuration.journalMode = .default
        if !readonly {
            configuration.prepareDatabase { db in
                // WAL alone syncs only at checkpoints; FULL makes every commit durable.
                try db.execute(sql: "PRAGMA synchronous = FULL")
                // Deleted rows and dropped tables are zeroed, not left in free pages (SPEC D9).
                try db.execute(sql: "PRAGMA secure_delete = ON")
                // Empty the WAL when the last connection closes after its
                // checkpoint: the main file alone is then the whole vault, as
                // a backup copy or a restored copy of it expects.
                try db.execute(sql: "PRAGMA journal_size_limit = 0")
                // Keep -wal and -shm when the last connection closes, so readers
                // in later processes find them and need to write nothing.
                var persist: CInt = 1
                let code = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
                guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "SQLITE_FCNTL_PERSIST_WAL") }
            }
        }
        return configuration
    }

    /// A read-only connection with a read-only shared-memory index, or `nil`
    /// when the file lacks its WAL companions (opening would create them),
    /// SQLite takes no URI parameters, or the index needs a writer to rebuild it.
    private static func openReader(_ path: String) throws -> DatabaseQueue? {
        guard PrivateFile.exists(path + "-wal"), PrivateFile.exists(path + "-shm"),
              sqlite3_compileoption_used("USE_URI") == 1 else { return nil }
        do {
            // GRDB reads the schema on opening, so a torn index shows here first.
            return try DatabaseQueue(path: "file:" + uriEscaped(path) + "?readonly_shm=1", configuration: configuration(readonly: true))
        } catch let error as DatabaseError where needsWriterToRead(error) {
            return nil
        }
    }

    private static func openWriter(_ path: String) throws -> DatabaseQueue {
        try DatabaseQueue(path: path, configuration: configuration(readonly: false))
    }

    /// `path` as the path of a `file:` URI: `%`, `?` and `#` would otherwise
    /// be read as an escape, the query and the fragment.
    static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
