import Foundation
import Testing

/// `sesame put NAME --generate [--length N] [--charset SET]`, black-box.
@Suite("sesame put --generate: random values that never pass through argv or output")
struct PutGenerateTests: VaultHomeSuite {
    let place: VaultHome

    init() throws {
        place = try VaultHome()
    }

    private func sesame(_ arguments: [String], stdin: Data? = nil) async throws -> SesameBinary.Result {
        try await place.script(arguments, stdin: stdin)
    }

    @Test("The default: 32 alphanumeric characters, stored as put stores, nothing printed; two are different")
    func defaults() async throws {
        defer { place.remove() }
        try await place.createVault()
        for name in ["a", "b"] {
            let put = try await sesame(["put", name, "--generate"])
            #expect(put.status == 0 && put.output.isEmpty && put.stderr.isEmpty, "\(put.stderr)")
        }
        let a = try await sesame(["get", "a"]).stdout, b = try await sesame(["get", "b"]).stdout
        #expect(a.count == 32 && a.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        #expect(a != b)
        #expect(try await sesame(["ls"]).stdout.range(of: #"(?m)^sesame +a +- +none +when-unlocked$"#, options: .regularExpression) != nil)
    }

    @Test("--length and --charset: named sets and literal characters", arguments: [
        ("digits", 8, "0123456789"), ("hex", 64, "0123456789abcdef"), ("alpha", 1024, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
        ("printable", 40, String((33...126).map { Character(Unicode.Scalar(UInt8($0))) })), ("-_.", 20, "-_."),
    ])
    func charsets(charset: String, length: Int, allowed: String) async throws {
        defer { place.remove() }
        try await place.createVault()
        // `--charset=SET`: a set that starts with `-` would read as an option.
        let put = try await sesame(["put", "x", "--generate", "--length", "\(length)", "--charset=\(charset)"])
        #expect(put.status == 0, "\(put.stderr)")
        let value = try await sesame(["get", "x"]).stdout
        #expect(value.count == length && value.allSatisfy { allowed.contains($0) })
    }

    @Test("Refused with exit 2: a length outside 8…1024, a bad --charset, --length without --generate, a value on stdin as well")
    func refusals() async throws {
        defer { place.remove() }
        try await place.createVault()
        for arguments in [["--generate", "--length", "7"], ["--generate", "--length", "1025"], ["--generate", "--charset", "aa"],
                          ["--generate", "--charset", "é0"], ["--length", "12"], ["--charset", "hex"]] {
            let refused = try await sesame(["put", "x"] + arguments, stdin: Data("typed".utf8))
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
        }
        let both = try await sesame(["put", "x", "--generate"], stdin: Data("typed value".utf8))
        #expect(both.status == 2 && both.stderr.contains("standard input holds one"), "\(both.stderr)")
        #expect(try await sesame(["ls"]).stdout.isEmpty, "nothing was stored")
    }

    @Test("--replace --generate gives an existing item a new value")
    func replace() async throws {
        defer { place.remove() }
        try await place.createVault()
        try await place.put("x", Data("old".utf8))
        #expect(try await sesame(["put", "x", "--generate"]).status == 1)
        #expect(try await sesame(["put", "x", "--generate", "--replace"]).status == 0)
        let value = try await sesame(["get", "x"]).stdout
        #expect(value != "old" && value.count == 32)
    }
}
