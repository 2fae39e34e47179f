// libFuzzer target for the private-key import parsers (`Vault.importKey`:
// PEM PKCS#8 and SEC1 through SwiftASN1 and swift-crypto, OpenSSH's
// openssh-key-v1 through Sesame's own reader) and the public-key parser
// (`PublicKey(pemRepresentation:purpose:)`), all of which take files a user
// was handed.
//
// The first input byte picks the mode:
//   0: the rest is the file's text, as is;
//   1: the rest is an openssh-key-v1 body, armoured as OPENSSH PRIVATE KEY
//      (70-column base64, as ssh-keygen writes), so the fuzzer reaches the
//      binary reader behind the armour;
//   2: the rest is DER, armoured as PRIVATE KEY (PKCS#8);
//   3: the rest is DER, armoured as PUBLIC KEY, for the peer-key parser.
// Any result is fine except a crash, a hang or a sanitizer report; the only
// status allowed is `invalidArgument` (or a successful import, which is then
// deleted so the next input can use the name again).
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import FuzzSupport
import Sesame

let vault: Vault = blocking { await temporaryVault(prefix: "sesame-fuzz-keys") }

func armour(_ body: [UInt8], _ type: String, width: Int) -> String {
    let base64 = Data(body).base64EncodedString()
    var lines = ["-----BEGIN \(type)-----"]
    var index = base64.startIndex
    while index < base64.endIndex {
        let end = base64.index(index, offsetBy: width, limitedBy: base64.endIndex) ?? base64.endIndex
        lines.append(String(base64[index..<end]))
        index = end
    }
    return (lines + ["-----END \(type)-----"]).joined(separator: "\n") + "\n"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let mode = data[0] % 4
    if mode == 3 {
        for purpose in [KeyAlgorithm.Purpose.signing, .keyAgreement] {
            if let key = try? PublicKey(pemRepresentation: armour(input, "PUBLIC KEY", width: 64), purpose: purpose) {
                precondition(key.algorithm.purpose == purpose)
                _ = key.derRepresentation
                _ = key.fingerprint
            }
        }
        return 0
    }
    let text: [UInt8] = switch mode {
    case 1: Array(armour(input, "OPENSSH PRIVATE KEY", width: 70).utf8)
    case 2: Array(armour(input, "PRIVATE KEY", width: 64).utf8)
    default: input
    }
    let outcome = blocking { () async -> VaultError.Status? in
        do throws(VaultError) {
            _ = try await vault.keys.import(SecretBytes(text), service: "fuzz", name: "k", accessControl: Vault.noAccessControl)
            try await vault.keys.delete(service: "fuzz", name: "k")
            return nil
        } catch {
            return error.status
        }
    }
    if let outcome, outcome != .invalidArgument {
        fatalError("unexpected status \(outcome) for a \(text.count)-byte key file")
    }
    return 0
}

@_cdecl("FuzzKeyImport_main")
public func fuzzKeyImportMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzKeyImport(data, size) }
}
