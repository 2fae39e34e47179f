import Foundation
@testable import Sesame
import Testing
import SesameTesting

/// The private-file writes behind `sesame export FILE` and `inject -o FILE`:
/// 0600 from the first byte, an existing file kept unless replacing is asked
/// for, and a replacement that is whole or absent.
@Suite("Private files: exports and rendered templates")
struct PrivateFileOutputTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    private func failure(_ body: () throws(PrivateFile.OutputFailure) -> Void) -> PrivateFile.OutputFailure? {
        do throws(PrivateFile.OutputFailure) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("A new file is 0600 with the bytes")
    func createsPrivate() throws {
        let path = directory.path + "/export"
        try PrivateFile.write(Array("secret".utf8), to: path, replacing: false)
        #expect(try mode(path) == 0o600)
        #expect(FileManager.default.contents(atPath: path) == Data("secret".utf8))
    }

    @Test("Without replacing, an existing file is refused by the check and by the write, and kept")
    func keepsExisting() throws {
        let path = directory.path + "/kept"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
        #expect(failure { () throws(PrivateFile.OutputFailure) in try PrivateFile.requireWritable(path, replacing: false) } == .exists(path: path))
        // One that appeared after the check is kept too: the create is exclusive.
        #expect(failure { () throws(PrivateFile.OutputFailure) in try PrivateFile.write([1], to: path, replacing: false) } == .exists(path: path))
        #expect(FileManager.default.contents(atPath: path) == Data("old".utf8))
        #expect(failure { () throws(PrivateFile.OutputFailure) in try PrivateFile.requireWritable(path, replacing: true) } == nil)
        #expect(failure { () throws(PrivateFile.OutputFailure) in try PrivateFile.requireWritable(directory.path + "/new", replacing: false) } == nil)
    }

    @Test("A directory is refused whether or not replacing is asked for")
    func refusesDirectory() {
        for replacing in [false, true] {
            #expect(failure { () throws(PrivateFile.OutputFailure) in try PrivateFile.requireWritable(directory.path, replacing: replacing) }
                    == .directory(path: directory.path))
        }
    }

    @Test("Replacing renames a new 0600 file over the old one and leaves no temporary file beside it")
    func replaces() throws {
        let path = directory.path + "/replaced"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old contents".utf8), attributes: [.posixPermissions: 0o644]))
        let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        try PrivateFile.write(Array("new".utf8), to: path, replacing: true)
        #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
        #expect(try mode(path) == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int != before, "a new file, not the old one rewritten")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["replaced"])
    }

    @Test("A step that fails names itself and the path, and leaves nothing behind")
    func failingStep() throws {
        let missing = directory.path + "/no-such-directory/export"
        #expect(failure { () throws(PrivateFile.OutputFailure) in try PrivateFile.write([1], to: missing, replacing: false) }
                == .systemCall(.create, path: missing, errno: ENOENT))
        // Renaming a file over a non-empty directory fails after the write: the temporary file goes.
        let occupied = directory.path + "/occupied"
        try FileManager.default.createDirectory(atPath: occupied + "/inside", withIntermediateDirectories: true)
        guard case .systemCall(.replace, occupied, _) = failure({ () throws(PrivateFile.OutputFailure) in
            try PrivateFile.write([1], to: occupied, replacing: true)
        }) else {
            Issue.record("renaming over a directory must fail as the replace step")
            return
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["occupied"])
    }

    @Test("A relative path is made absolute against the working directory")
    func absolute() {
        #expect(PrivateFile.absolute("/tmp/x") == "/tmp/x")
        #expect(PrivateFile.absolute("x") == FileManager.default.currentDirectoryPath + "/x")
    }
}
