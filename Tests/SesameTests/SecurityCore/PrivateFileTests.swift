import Foundation
@testable import Sesame
import Testing
import SesameTesting

/// The one private-file helper: owner, mode and links are checked the same
/// way for the vault, key files and records.
@Suite("Private files")
struct PrivateFileTests {
    let directory: TemporaryDirectory
    var folder: String { directory.path + "/private" }

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/private", withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
    }

    private func file(_ name: String, mode: Int = 0o600) -> String {
        let path = folder + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8), attributes: [.posixPermissions: mode]))
        return path
    }

    private func failure(_ path: String) -> PrivateFile.Failure? {
        do throws(PrivateFile.Failure) {
            try PrivateFile.requirePrivate(path)
            return nil
        } catch {
            return error
        }
    }

    @Test("A 0600 file of ours in a 0700 directory passes; 0640, 0604 and a 0755 directory do not")
    func modes() throws {
        #expect(failure(file("ok")) == nil)
        #expect(failure(folder) == nil)
        for mode in [0o640, 0o604, 0o660] {
            guard case .insecurePermissions = failure(file("open-\(mode)", mode: mode)) else {
                Issue.record("mode \(String(mode, radix: 8)) must be refused")
                continue
            }
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        guard case .insecurePermissions = failure(folder) else { Issue.record("a 0755 directory must be refused"); return }
    }

    @Test("A symbolic link is refused, even to a private file of ours")
    func links() throws {
        let target = file("target")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: target)
        guard case .symbolicLink = failure(folder + "/link") else { Issue.record("a link must be refused"); return }
        #expect(throws: (any Error).self) { _ = try PrivateFile(path: folder + "/link").read() }
    }

    @Test("A 0600 file that belongs to another user is refused (the vault's and the records' check alike)")
    func owner() throws {
        let path = file("theirs")
        // Tests run as root in CI; as another user chown fails and the check
        // is exercised on a file root owns instead.
        if geteuid() == 0 {
            #expect(chown(path, 65534, 65534) == 0)
            guard case .wrongOwner(_, let owner) = failure(path) else { Issue.record("another user's file must be refused"); return }
            #expect(owner == 65534)
            #expect(throws: (any Error).self) { _ = try PrivateFile(path: path).read() }
            #expect(throws: VaultError.insecurePermissions) { try PrivateFiles.requirePrivate(path) }
        } else {
            guard case .wrongOwner(_, let owner) = failure("/etc/hostname") ?? failure("/etc/passwd") else {
                Issue.record("root's file must be refused for another user")
                return
            }
            #expect(owner == 0)
        }
    }
}
