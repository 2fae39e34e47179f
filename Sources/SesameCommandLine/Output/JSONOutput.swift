#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--json` output: data, and errors, on standard output, one document each.
enum JSONOutput {
    private struct ErrorDocument: Encodable {
        struct Body: Encodable {
            var code: Int32
            var status: String
            var message: String
        }
        var error: Body
    }

    /// - Parameter compact: One line, for a stream of documents (`status --watch --json`).
    static func encode(_ value: some Encodable, compact: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Only our own plain structs are encoded; they cannot fail.
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }

    /// Prints `failure` as `{"error": {...}}` on standard output, where a
    /// script parsing `--json` looks, and exits with its code. Scripts need
    /// not parse standard error, and stdout stays one JSON document.
    static func exit(_ failure: CommandFailure) -> Never {
        let document = ErrorDocument(error: .init(code: failure.status.rawValue, status: "\(failure.status)", message: failure.message))
        print(encode(document))
        fflush(nil)
        processExit(failure.status.rawValue)
    }
}

private func processExit(_ status: Int32) -> Never {
    exit(status)
}
