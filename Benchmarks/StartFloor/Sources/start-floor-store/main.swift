import Crypto
import Foundation
import GRDB

// One read-only query and one AES-GCM open, as a get does after its parse.
let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "floor.sqlite"
let name = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "item"
try FloorStore.printValue(path: path, name: name)

enum FloorStore {
    static func printValue(path: String, name: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let row = try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT key, value FROM item WHERE name = ?", arguments: [name])
        }
        guard let row, let key: Data = row["key"], let value: Data = row["value"] else { fatalError("no item \(name)") }
        let plaintext = try AES.GCM.open(AES.GCM.SealedBox(combined: value), using: SymmetricKey(data: key))
        print(plaintext.count)
    }
}
