import Foundation
@testable import SesameCommandLine
import Testing

/// The record `--undo` reads stays readable across versions.
@Suite("sesame setup's record")
struct SetupRecordTests {
    @Test("SPEC G: a record written before modes and digests were kept still decodes; its file is put back at 0600, the narrowest that works")
    func olderRecord() throws {
        let old = #"{"undo":[{"restoreFile":{"path":"\/h\/a.conf","previous":"x"}},{"restoreFile":{"path":"\/h\/b.conf"}}]}"#
        let record = try JSONDecoder().decode(SetupRecord.self, from: Data(old.utf8))
        #expect(record.undo == [.restoreFile(path: "/h/a.conf", previous: "x"), .restoreFile(path: "/h/b.conf", previous: nil)])
    }

    @Test("SPEC G: setup run again keeps what was there first and records the digest of what it wrote last")
    func writtenAgain() {
        var record = SetupRecord()
        record.wrote("one", to: "/h/a.conf", replacing: SetupFile.Contents(text: "mine", mode: 0o600))
        record.wrote("two", to: "/h/a.conf", replacing: SetupFile.Contents(text: "one", mode: 0o600))
        #expect(record.undo == [.restoreFile(path: "/h/a.conf", previous: "mine", mode: 0o600, written: SetupFile.digest("two"))])
    }
}
