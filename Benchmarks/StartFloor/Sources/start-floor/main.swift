import ArgumentParser
import Crypto
import Foundation
import GRDB

struct VaultChoice: ParsableArguments {
    @Option(help: "The vault.") var vault: String = "floor.sqlite"
    @Flag(help: "Never prompt.") var noInteraction = false
}

struct ItemChoice: ParsableArguments {
    @Argument(help: "The item.") var name: String
    @Option(help: "The service.") var service: String = "default"
}

/// `start-floor NAME`: parse as `sesame get` does, read one row, open it, print it.
/// `start-floor NAME --prepare` writes the one-item database first (not timed).
@main
struct Get: AsyncParsableCommand {
    @OptionGroup var item: ItemChoice
    @OptionGroup var options: VaultChoice
    @Option(help: "Why.") var reason: String?
    @Flag(help: "JSON.") var json = false
    @Flag(help: "Clipboard.") var clip = false
    @Flag(help: "Write the database with one item, then exit.") var prepare = false

    func run() async throws {
        if prepare {
            let queue = try DatabaseQueue(path: options.vault)
            let key = SymmetricKey(size: .bits256)
            let sealed = try AES.GCM.seal(Array(repeating: UInt8(ascii: "x"), count: 64), using: key)
            try await queue.write { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS item (name TEXT PRIMARY KEY, key BLOB, value BLOB)")
                try db.execute(sql: "INSERT OR REPLACE INTO item VALUES (?, ?, ?)",
                               arguments: [item.name, key.withUnsafeBytes { Data($0) }, sealed.combined!])  // combined: nil only for nonces of other sizes
            }
            return
        }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: options.vault, configuration: configuration)
        let name = item.name
        // The async read, as the vault's reads are: the query runs on GRDB's queue.
        let columns: (key: Data, value: Data)? = try await queue.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT key, value FROM item WHERE name = ?", arguments: [name]),
                  let key: Data = row["key"], let value: Data = row["value"] else { return nil }
            return (key, value)
        }
        guard let (key, value) = columns else { throw ExitCode(1) }
        let plaintext = try AES.GCM.open(AES.GCM.SealedBox(combined: value), using: SymmetricKey(data: key))
        print(String(decoding: plaintext, as: UTF8.self))
    }
}
