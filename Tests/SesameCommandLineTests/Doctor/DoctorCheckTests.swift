import Foundation
@testable import SesameCommandLine
import Testing

/// `sesame doctor --json`'s words are a contract with scripts: every state
/// keeps its JSON value, and the document keeps its shape.
@Suite("sesame doctor's JSON")
struct DoctorCheckTests {
    @Test("SPEC G: every check status has its JSON word and its text word, and no status is without them")
    func statuses() {
        let words: [DoctorCheck.Status: (json: String, text: String)] = [
            .ok: ("ok", "ok"), .warning: ("warning", "warning"), .failed: ("failed", "FAILED"), .notSetUp: ("notSetUp", "not set up"),
        ]
        #expect(Set(words.keys) == Set(DoctorCheck.Status.allCases))
        for (status, word) in words {
            #expect(JSONOutput.encode([status]) == "[\n  \"\(word.json)\"\n]")
            #expect(DoctorCheck("git", status, "d").text.hasPrefix(word.text.padding(toLength: DoctorCheck.statusWidth, withPad: " ", startingAt: 0) + "git "))
        }
    }

    @Test("the longest status and the longest check name stay two spaces apart, and a fix lines up under the detail")
    func columns() {
        let line = DoctorCheck("secret-service", .notSetUp, "detail", fix: "sesame setup secret-service").text
        #expect(line == "not set up  secret-service  detail\n" + String(repeating: " ", count: 28) + "fix: sesame setup secret-service", "\(line)")
    }

    @Test("SPEC G: the reader and PAM states doctor reads keep `status --json`'s words")
    func authenticatorStates() {
        let words: [StatusReport.State: String] = [
            .ready: "ready", .notEnrolled: "notEnrolled", .lockedOut: "lockedOut", .notAvailable: "notAvailable", .set: "set", .notSet: "notSet",
        ]
        #expect(Set(words.keys) == Set(StatusReport.State.allCases))
        for (state, word) in words {
            #expect(JSONOutput.encode([state]) == "[\n  \"\(word)\"\n]")
        }
    }

    @Test("SPEC G: the --json document: ok, then checks of check, status, detail, fix and facts; a missing fix or facts is left out")
    func document() {
        let checks = [
            DoctorCheck("git", .failed, "credential.helper is not set", fix: "sesame setup git", facts: ["helper": "store"]),
            DoctorCheck("units", .ok, "installed"),
        ]
        #expect(JSONOutput.encode(DoctorCommand.Document(ok: false, checks: checks)) == """
            {
              "checks" : [
                {
                  "check" : "git",
                  "detail" : "credential.helper is not set",
                  "facts" : {
                    "helper" : "store"
                  },
                  "fix" : "sesame setup git",
                  "status" : "failed"
                },
                {
                  "check" : "units",
                  "detail" : "installed",
                  "status" : "ok"
                }
              ],
              "ok" : false
            }
            """)
    }
}
