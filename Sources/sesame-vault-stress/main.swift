// Writes items into an existing vault from a process of its own, printing
// each account once the vault acknowledged it. Used by the multi-process and
// kill -9 tests: every printed account must be in the vault afterwards.
//
// Usage: sesame-vault-stress <vault-path> <account-prefix> <count>
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame

let arguments = CommandLine.arguments
/// Writes straight to a descriptor, unbuffered, so a line is out before
/// the next item is written even if the process is killed right after.
func emit(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)
    bytes.append(UInt8(ascii: "\n"))
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written <= 0 { return }
        offset += written
    }
}

guard arguments.count == 4, let count = Int(arguments[3]) else {
    emit("usage: sesame-vault-stress <vault-path> <account-prefix> <count>", to: 2)
    exit(64)
}
do {
    let vault = try await Vault.open(at: arguments[1], unlock: .device(), authenticators: Authenticators(appName: "sesame-vault-stress"))
    for index in 0..<count {
        let account = "\(arguments[2])-\(index)"
        try await vault.add(SecretBytes(utf8: "value of \(account)"), service: "stress", account: account)
        emit(account, to: 1)
    }
} catch {
    emit("sesame-vault-stress: \(error)", to: 2)
    exit(1)
}
