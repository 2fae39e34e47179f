#if os(Linux)
import Foundation
import Sesame
import Testing
@testable import SesameLinux

/// The reuse token as the kernel keyring keeps it (``ReuseToken``): a
/// token written by one version of `sesame` is read by another, so its
/// bytes are frozen. The fixtures were written once from the format,
/// outside Swift; never regenerate them to make these tests pass.
@Suite("ReuseToken: the golden tokens")
struct ReuseTokenGoldenTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GoldenFixtures").path
    static let bootTime: UInt64 = 123_456_789_012_345_678

    static let cases: [(fixture: String, token: ReuseToken)] = [
        ("reuse-token.bin", ReuseToken(bootTime: bootTime, domainState: DomainState(bytes: Array(UInt8(0x60)...0x7f)))),
        ("reuse-token-no-domain-state.bin", ReuseToken(bootTime: bootTime, domainState: nil)),
    ]

    func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + name)))
    }

    @Test("A6: Each fixture decodes to its known token", arguments: cases)
    func decodes(fixture name: String, token: ReuseToken) throws {
        #expect(ReuseToken(decoding: try fixture(name)[...]) == token)
    }

    @Test("A6: Each known token encodes to its fixture byte for byte", arguments: cases)
    func encodes(fixture name: String, token: ReuseToken) throws {
        #expect(token.encoded() == (try fixture(name)))
    }
}
#endif
