// A vault writer, checker and mixed-load process for the multi-process,
// kill -9 and concurrency tests (Tests/SesameTests/Vault/VaultProcessesTests.swift,
// scripts/crash-test.sh, scripts/concurrency-test.sh).
//
// Usage:
//   sesame-vault-stress <vault-path> <account-prefix> <count>
//       Opens an existing vault (device slot) and adds <count> items
//       "<prefix>-<i>" = "value of <prefix>-<i>" (service "stress"), printing
//       each account on standard output once the vault acknowledged it.
//       Every printed account must be in the vault afterwards, even after kill -9.
//   sesame-vault-stress create <vault-path>
//       Creates a vault with a device slot (the device key next to it).
//   sesame-vault-stress mixed <vault-path> <process-id> <operations> [seed]
//       Mixed load: <operations> random operations; writes and deletes touch
//       only this process's own accounts "m<process-id>-<k>" (k < 16), reads
//       touch everyone's ("m0-…" to "m7-…"). Logs each acknowledged
//       operation on standard output: "put <account> <value>" or
//       "del <account>". Own accounts left by an earlier run are read at
//       the start. Exits 1 on any unexpected error (a read of an own
//       account that does not return the last acknowledged value, a lock
//       timeout, a damaged file…), with the error on standard error.
//   sesame-vault-stress verify [--exact] <vault-path> <log>...
//       Opens the vault and checks it against acknowledged logs: lines
//       "<account>" (the writer's output: value "value of <account>"),
//       "put <account> <value>", "del <account>"; for each account the last
//       line wins. Every expected item must read back with its value and every
//       deleted one must be absent. With --exact, an item of service "stress"
//       that no log mentions is an error too (without it, a write cut off by
//       kill -9 before it was acknowledged may or may not be there).
//       Prints "ok <n> items checked" and exits 0, or lists every
//       discrepancy on standard error and exits 1.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame

let service = "stress"
let ownAccounts = 16
let arguments = CommandLine.arguments
let authenticators = Authenticators(appName: "sesame-vault-stress")

/// Writes straight to a descriptor, unbuffered, so a line is out before
/// the next item is written even if the process is killed right after.
func emit(_ text: String, to descriptor: Int32) {
    Descriptor.writeAll(text + "\n", to: descriptor)
}

func usage() -> Never {
    emit("""
        usage: sesame-vault-stress <vault-path> <account-prefix> <count>
               sesame-vault-stress create <vault-path>
               sesame-vault-stress mixed <vault-path> <process-id> <operations> [seed]
               sesame-vault-stress verify [--exact] <vault-path> <log>...
        """, to: 2)
    exit(64)
}

func fail(_ message: String) -> Never {
    emit("sesame-vault-stress: \(message)", to: 2)
    exit(1)
}

func string(_ secret: SecretBytes) -> String {
    secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

/// SplitMix64: reproducible from a seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func openVault(_ path: String) async -> Vault {
    do {
        return try await Vault.open(at: path, unlock: .device(), authenticators: authenticators)
    } catch {
        fail("cannot open \(path): \(error)")
    }
}

func writer(path: String, prefix: String, count: Int) async {
    let vault = await openVault(path)
    for index in 0..<count {
        let account = "\(prefix)-\(index)"
        do {
            try await vault.items.add(SecretBytes(utf8: "value of \(account)"), service: service, account: account)
        } catch {
            fail("\(error)")
        }
        emit(account, to: 1)
    }
}

func create(path: String) async {
    do {
        _ = try await Vault.create(at: path, slots: [.device()], authenticators: authenticators)
    } catch {
        fail("cannot create \(path): \(error)")
    }
}

func mixed(path: String, me: Int, operations: Int, seed: UInt64) async {
    var random = SplitMix64(state: seed ^ UInt64(me) &* 0x1000_0001)
    let vault = await openVault(path)
    /// The last acknowledged value of each own account; nil = absent.
    /// Starts from what an earlier round left (no one else writes these).
    var own: [String: String] = [:]
    do {
        for item in try await vault.items.list(service: service) where item.account.hasPrefix("m\(me)-") {
            own[item.account] = string(try await vault.items.read(service: service, account: item.account, operationPrompt: ""))
        }
    } catch {
        fail("cannot read the initial state: \(error)")
    }
    for sequence in 0..<operations {
        let account = "m\(me)-\(Int.random(in: 0..<ownAccounts, using: &random))"
        let roll = Int.random(in: 0..<100, using: &random)
        do {
            if roll < 40 {
                // Write: add, or update an existing one.
                let value = "\(account) #\(sequence)"
                if own[account] == nil {
                    try await vault.items.add(SecretBytes(utf8: value), service: service, account: account)
                } else {
                    try await vault.items.update(SecretBytes(utf8: value), service: service, account: account, operationPrompt: "")
                }
                own[account] = value
                emit("put \(account) \(value)", to: 1)
            } else if roll < 55 {
                // Delete an own account, present or not.
                if own[account] != nil {
                    try await vault.items.delete(service: service, account: account)
                    own[account] = nil
                    emit("del \(account)", to: 1)
                } else {
                    do {
                        try await vault.items.delete(service: service, account: account)
                        fail("deleted \(account), which this process had not written or had already deleted")
                    } catch let error where error.status == .itemNotFound {}
                }
            } else if roll < 75 {
                // Read an own account: exactly the last acknowledged value.
                do {
                    let value = string(try await vault.items.read(service: service, account: account, operationPrompt: ""))
                    guard value == own[account] else {
                        fail("lost update: \(account) reads \"\(value)\", last acknowledged \(own[account].map { "\"\($0)\"" } ?? "deleted")")
                    }
                } catch let error where error.status == .itemNotFound {
                    guard own[account] == nil else { fail("lost update: \(account) is missing; last acknowledged \"\(own[account]!)\"") }
                }
            } else if roll < 95 {
                // Read another process's account: absent, or a value written for it.
                let other = "m\(Int.random(in: 0..<8, using: &random))-\(Int.random(in: 0..<ownAccounts, using: &random))"
                do {
                    let value = string(try await vault.items.read(service: service, account: other, operationPrompt: ""))
                    guard value.hasPrefix("\(other) #") else { fail("\(other) reads \"\(value)\", which was never written for it") }
                } catch let error where error.status == .itemNotFound {}
            } else {
                _ = try await vault.items.list(service: service)
            }
        } catch {
            fail("operation \(sequence) on \(account): \(error)")
        }
    }
}

func verify(path: String, logs: [String], exact: Bool) async {
    var expected: [String: String?] = [:]
    for log in logs {
        guard let file = fopen(log, "r") else { fail("cannot read \(log)") }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        while getline(&line, &capacity, file) > 0 {
            var text = String(cString: line!)
            // A last line without its newline was cut off: not acknowledged.
            guard text.hasSuffix("\n") else { break }
            text.removeLast()
            if text.isEmpty { continue }
            let fields = text.split(separator: " ", maxSplits: 2).map(String.init)
            switch fields.first {
            case "put" where fields.count == 3: expected[fields[1]] = .some(fields[2])
            case "del" where fields.count == 2: expected[fields[1]] = .some(nil)
            case _ where fields.count == 1: expected[text] = .some("value of \(text)")
            default: fail("\(log): cannot parse \"\(text)\"")
            }
        }
        free(line)
    }
    let vault = await openVault(path)
    var problems: [String] = []
    let present: Set<String>
    do {
        present = Set(try await vault.items.list(service: service).map(\.account))
    } catch {
        fail("cannot list \(path): \(error)")
    }
    for (account, value) in expected.sorted(by: { $0.key < $1.key }) {
        if let value {
            do {
                let stored = string(try await vault.items.read(service: service, account: account, operationPrompt: ""))
                if stored != value { problems.append("\(account): reads \"\(stored)\", acknowledged \"\(value)\"") }
            } catch {
                problems.append("\(account): acknowledged \"\(value)\", read fails: \(error)")
            }
        } else if present.contains(account) {
            problems.append("\(account): deleted (acknowledged) but present")
        }
    }
    if exact {
        for account in present.subtracting(expected.keys).sorted() {
            problems.append("\(account): present but never acknowledged")
        }
    }
    guard problems.isEmpty else {
        for problem in problems.prefix(20) { emit("sesame-vault-stress: verify: \(problem)", to: 2) }
        fail("verify: \(problems.count) discrepancies in \(path)")
    }
    emit("ok \(expected.count) items checked, \(present.count) present", to: 1)
}

switch arguments.dropFirst().first {
case "create":
    guard arguments.count == 3 else { usage() }
    await create(path: arguments[2])
case "mixed":
    guard arguments.count == 5 || arguments.count == 6, let me = Int(arguments[3]), (0..<8).contains(me),
          let operations = Int(arguments[4]) else { usage() }
    let seed = arguments.count == 6 ? UInt64(arguments[5]) : UInt64.random(in: 0...UInt64.max)
    guard let seed else { usage() }
    await mixed(path: arguments[2], me: me, operations: operations, seed: seed)
case "verify":
    var rest = Array(arguments.dropFirst(2))
    let exact = rest.first == "--exact"
    if exact { rest.removeFirst() }
    guard rest.count >= 1 else { usage() }
    await verify(path: rest[0], logs: Array(rest.dropFirst()), exact: exact)
default:
    guard arguments.count == 4, let count = Int(arguments[3]) else { usage() }
    await writer(path: arguments[1], prefix: arguments[2], count: count)
}
