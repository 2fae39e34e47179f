// libFuzzer target for the git credential helper's storage
// (`GitCredential` item names, `Vault.storeGitCredential`,
// `gitCredential(answering:)`, `eraseGitCredentials(answering:)`): what git,
// or anyone who can write to the helper's standard input, puts in a credential.
//
// The input is split at NUL bytes into protocol, host, path, username and
// password; byte 0's low bits leave host (1), path (2) or username (4) out.
// Properties, any of which failing is a crash:
//   - a credential's item name decodes to the same attributes, and the input
//     read as an item name decodes only when it is that credential's one spelling;
//   - a stored credential is answered with its own password to a query for
//     its protocol, host, path and username, and erasing it leaves nothing;
//   - storing fails only with `invalidArgument`, and only without a protocol,
//     a username, or a host (a path alone only for `cert`), or with a newline in the password
//     (found by this target: it split the stored value's lines).
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import FuzzSupport
import Sesame
import SesameSecretsInUse

let vault: Vault = blocking { await temporaryVault(prefix: "sesame-fuzz-git-credential") }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGitCredential(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let flags = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if let asName = String(validating: bytes, as: UTF8.self), let decoded = GitCredential(itemName: asName) {
        precondition(decoded.itemName == asName, "two spellings of one credential")
    }
    var fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    while fields.count < 5 { fields.append("") }
    var credential = GitCredential()
    credential.protocol = fields[0]
    credential.host = flags & 1 == 0 ? fields[1] : nil
    credential.path = flags & 2 == 0 ? fields[2] : nil
    credential.username = flags & 4 == 0 ? fields[3] : nil
    credential.password = SecretBytes(utf8: fields[4])
    let query = credential
    let newline = fields[4].utf8.contains(UInt8(ascii: "\n"))
    return blocking {
        if let name = query.itemName {
            let decoded = GitCredential(itemName: name)
            precondition(decoded?.protocol == query.protocol && decoded?.path == query.path && decoded?.username == query.username,
                         "an item name that does not decode to its credential")
            precondition(decoded?.host == query.host || (query.host == "" && decoded?.host == nil), "the host changed")
        }
        do throws(VaultError) {
            try await vault.storeGitCredential(query, service: "git")
        } catch {
            precondition(error.status == .invalidArgument && (query.itemName == nil || newline), "store failed: \(error)")
            return 0
        }
        var lookup = query
        lookup.password = nil
        let found = try! await vault.gitCredential(answering: lookup, service: "git", operationPrompt: "fuzz")
        precondition(found?.password?.constantTimeEquals(query.password!) == true, "stored, but not answered with its password")
        let erased = try! await vault.eraseGitCredentials(answering: query, service: "git", operationPrompt: "fuzz")
        precondition(erased >= 1, "not erased")
        let left = try! await vault.items.list(service: "git")
        precondition(left.isEmpty, "something was left")
        return 0
    }
}

@_cdecl("FuzzGitCredential_main")
public func fuzzGitCredentialMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv, fuzzGitCredential)
}
