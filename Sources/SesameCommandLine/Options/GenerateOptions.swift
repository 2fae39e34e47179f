#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Sesame

/// `put --generate [--length N] [--charset SET]`: a random value made by
/// the library's ``SecretGenerator`` instead of one read from standard input.
struct GenerateOptions: ParsableArguments {
    @Flag(help: "Store a new random value (from the system's CSPRNG) instead of reading one; nothing is printed.")
    var generate = false

    @Option(help: ArgumentHelp("With --generate: how many characters (\(SecretGenerator.lengthRange.lowerBound)…\(SecretGenerator.lengthRange.upperBound), default \(SecretGenerator.defaultLength)).", valueName: "N"))
    var length: Int?

    @Option(help: ArgumentHelp(
        "With --generate: \(SecretAlphabet.named.map(\.name).joined(separator: ", ")) (default alnum), or the characters themselves.",
        discussion: "Literal characters: at least 2, printable ASCII, none repeated, e.g. --charset='-_.0123456789' (with `=` when the set starts with `-`).",
        valueName: "set"))
    var charset: String?

    func validate() throws {
        guard generate else {
            if length != nil || charset != nil { throw ValidationError("--length and --charset go with --generate") }
            return
        }
        if let length, !SecretGenerator.lengthRange.contains(length) {
            throw ValidationError("--length must be \(SecretGenerator.lengthRange.lowerBound) to \(SecretGenerator.lengthRange.upperBound)")
        }
        _ = try alphabet()
    }

    /// The alphabet `--charset` names or spells out.
    func alphabet() throws -> SecretAlphabet {
        guard let charset else { return .alphanumeric }
        if let named = SecretAlphabet.named.first(where: { $0.name == charset }) { return named.alphabet }
        guard let literal = SecretAlphabet(charset) else {
            throw ValidationError("--charset is \(SecretAlphabet.named.map(\.name).joined(separator: ", ")) or at least 2 different printable ASCII characters")
        }
        return literal
    }

    /// A new value; refuses when standard input already holds data, which
    /// the user meant to store and would otherwise silently lose.
    ///
    /// - Throws: ``CommandFailure`` (exit 2) when standard input has data
    ///   or the length is one no secret is made with.
    func value() throws -> SecretBytes {
        if Self.standardInputHasData() {
            throw CommandFailure(status: .usage, message: "--generate makes the value, but standard input holds one; use one or the other. Nothing was stored")
        }
        let alphabet = try alphabet()
        do throws(SecretLengthError) {
            return try SecretGenerator.generate(length: length ?? SecretGenerator.defaultLength, alphabet: alphabet)
        } catch {
            throw CommandFailure(status: .usage, message: error.description)
        }
    }

    /// Whether standard input holds bytes now: a non-empty file, or a pipe
    /// with data ready. Never blocks: a pipe a caller keeps open without
    /// writing (ssh, CI runners) counts as empty.
    private static func standardInputHasData() -> Bool {
        if isatty(0) == 1 { return false }
        var status = stat()
        guard fstat(0, &status) == 0 else { return false }
        if (status.st_mode & S_IFMT) == S_IFREG { return status.st_size > lseek(0, 0, SEEK_CUR) }
        var poller = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) == 1, poller.revents & Int16(POLLIN) != 0 else { return false }
        // Readable: either data or end of file. One byte tells which; it is
        // not kept, and the command fails when it is data.
        var byte: UInt8 = 0
        return read(0, &byte, 1) == 1
    }
}
