// libFuzzer target for item record decoding (`ItemRow`, the wrappings
// encoding, the row MAC and AES-GCM checks) as an attacker with write access
// to the vault file would drive it.
//
// Setup: a vault with one item, "fuzz"/"target" = "the original value".
// Each input: byte 0 picks the column of that row, byte 1 the SQLite type
// written (blob, text, integer, real, null), byte 2 the mode (replace the
// column with the rest, or XOR the rest over the current blob); then
// `read`, `list` and `contains` run, and the row is restored.
// The vault must either return the original value or fail with
// tampered / damaged / itemNotFound / itemInvalidated: never another value,
// never a crash.
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import FuzzSupport
import GRDB
import Sesame

// From format 6 names, labels, protection and dates are sealed in `attributes`
// and the row is found by `lookup`, a keyed hash of its name (SPEC D9).
let columns = ["attributes", "lookup", "wrappings", "commitment", "ciphertext", "mac", "id"]
let original = "the original value"

let vault: Vault = blocking {
    let vault = await temporaryVault(prefix: "sesame-fuzz-record")
    try! await vault.items.add(SecretBytes(utf8: original), service: "fuzz", account: "target")
    return vault
}
let raw = try! DatabaseQueue(path: vault.path)
/// The untouched row is kept in a side table of the same file (the vault
/// ignores tables it does not know), so no global holds a GRDB Row or Data
/// (LeakSanitizer cannot follow Swift's tagged pointers in those). Taken
/// while the target is the only row: the file shows no names to find it by.
let targetID: Int64 = {
    let id = try! raw.write { db in
        try db.execute(sql: "CREATE TABLE pristine AS SELECT * FROM item")
        return try Int64.fetchOne(db, sql: "SELECT id FROM pristine")!
    }
    blocking { try! await vault.items.add(SecretBytes(utf8: "a neighbour"), service: "fuzz", account: "neighbour") }
    return id
}()

func fuzzRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 3 else { return 0 }
    // Globals are lazy: set them up here, not inside a GRDB closure
    // (GRDB's database methods are not reentrant).
    let targetID = targetID
    _ = vault
    let column = columns[Int(data[0]) % columns.count]
    let rest = Array(UnsafeBufferPointer(start: data + 3, count: size - 3))
    var bytes = rest
    if data[2] & 1 == 1, let current = try! raw.read({ db in try Data.fetchOne(db, sql: "SELECT \(column) FROM pristine") }) {
        bytes = Array(current)
        for (index, byte) in rest.enumerated() where index < bytes.count { bytes[index] ^= byte }
    }
    let value: (any DatabaseValueConvertible)?
    switch data[1] % 5 {
    case 0: value = Data(bytes)
    case 1: value = String(decoding: bytes, as: UTF8.self)
    case 2: value = bytes.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    case 3: value = Double(bitPattern: bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    default: value = nil
    }
    do {
        try raw.write { db in
            try db.execute(sql: "UPDATE item SET \(column) = ? WHERE id = ?", arguments: [value, targetID])
        }
    } catch {
        return 0  // a constraint (NOT NULL, UNIQUE) refused the edit: nothing to test
    }
    let allowed: Set<VaultError.Status> = [.tampered, .damaged, .itemNotFound, .itemInvalidated]
    let problem: String? = blocking {
        do throws(VaultError) {
            let read = try await vault.items.read(service: "fuzz", account: "target", operationPrompt: "")
            let text = read.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            if text != original { return "read returned \"\(text)\" after editing \(column)" }
        } catch {
            if !allowed.contains(error.status) { return "read failed with \(error) after editing \(column)" }
        }
        do throws(VaultError) {
            for item in try await vault.items.list() where item.account == "neighbour" && item.service != "fuzz" {
                return "the neighbour changed service"
            }
            _ = try await vault.items.contains(service: "fuzz", account: "target")
        } catch {
            if !allowed.contains(error.status) { return "list/contains failed with \(error) after editing \(column)" }
        }
        return nil
    }
    try! raw.write { db in
        try db.execute(sql: "DELETE FROM item WHERE id = ? OR lookup = (SELECT lookup FROM pristine)", arguments: [targetID])
        try db.execute(sql: "INSERT INTO item SELECT * FROM pristine")
    }
    if let problem { fatalError(problem) }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordEntry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { fuzzRecord(data, size) }

@_cdecl("FuzzRecord_main")
public func fuzzRecordMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzRecord(data, size) }
}
