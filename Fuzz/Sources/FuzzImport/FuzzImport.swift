// libFuzzer target for the export-file parser (`Vault.importItems`, which
// runs `ExportFile.read` and then validates every entry).
//
// The first input byte picks the mode:
//   even: the rest is a whole export file, as a user might be handed one
//         (exercises the magic, version, length and checksum checks);
//   odd:  the rest is the *decrypted payload*: the harness wraps it in a
//         valid header (scrypt N=2^10), seals it with AES-GCM under the known
//         passphrase and appends the checksum, so the fuzzer reaches the
//         entry decoder behind the cryptography.
// Any result is fine except a crash, a hang or a sanitizer report; the
// statuses allowed are `damaged`, `authFailed` and `ioError` (scrypt refusing a cost).
#if canImport(Glibc)
import Glibc
#endif
import Crypto
import CryptoExtras
import Dispatch
import FuzzSupport
import Sesame

let passphrase = "fuzz passphrase"
let salt = [UInt8](repeating: 7, count: 16)
let header: [UInt8] = Array("SESAMEEX".utf8) + [1, 10] + [0, 0, 0, 8] + [0, 0, 0, 1] + salt
let key: SymmetricKey = try! KDF.Scrypt.deriveKey(
    from: Array(passphrase.utf8), salt: salt, outputByteCount: 32, rounds: 1 << 10, blockSize: 8, parallelism: 1, maxMemory: 128 * 1024 * 8 + (1 << 20))

let vault: Vault = blocking { await temporaryVault(prefix: "sesame-fuzz") }

func wrap(_ payload: [UInt8]) -> [UInt8] {
    let sealed = try! AES.GCM.seal(payload, using: key, authenticating: header).combined!
    var file = header + Array(sealed)
    file += Array(SHA256.hash(data: file))
    return file
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let file = data[0] & 1 == 0 ? input : wrap(input)
    let outcome = blocking { () async -> VaultError.Status? in
        do throws(VaultError) {
            _ = try await vault.importItems(from: file, passphrase: SecretBytes(utf8: passphrase))
            return nil
        } catch {
            return error.status
        }
    }
    if let outcome, ![VaultError.Status.damaged, .authFailed, .ioError].contains(outcome) {
        fatalError("unexpected status \(outcome) for a \(file.count)-byte file")
    }
    return 0
}

@_cdecl("FuzzImport_main")
public func fuzzImportMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzImport(data, size) }
}
