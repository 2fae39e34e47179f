import Crypto
import Foundation
@testable import Sesame
import SesameTesting
import Testing

@Suite("Vault: scrypt costs from files are bounded")
struct ScryptCostTests {
    @Test("A cost needing more than 1 GiB or 16× the standard work is refused; the standard and test costs are fine")
    func bounds() {
        #expect(ScryptCost(log2N: 17) != nil)
        #expect(ScryptCost(log2N: 20, r: 8, p: 1) != nil)
        #expect(ScryptCost(log2N: 21, r: 8, p: 1) == nil, "2 GiB of memory")
        #expect(ScryptCost(log2N: 24, r: 64, p: 16) == nil)
        #expect(ScryptCost(log2N: 17, r: 8, p: 16) != nil, "exactly 16× the standard work")
        #expect(ScryptCost(log2N: 18, r: 8, p: 16) == nil, "32× the standard work")
        #expect(ScryptCost(log2N: 10) != nil)
    }

    @Test("An export file naming a hostile scrypt cost is refused before any derivation, even with a recomputed checksum")
    func hostileExport() async throws {
        let fixture = try await TestVault()
        // Header: "SESAMEEX" ‖ version ‖ log2N ‖ r (u32, big-endian) ‖ p (u32) ‖ salt[16] ‖ sealed ‖ sha256.
        var body = Array("SESAMEEX".utf8) + [1, 24] + [0, 0, 0, 64] + [0, 0, 0, 16] + [UInt8](repeating: 7, count: 16)
        body += [UInt8](repeating: 0, count: 64)
        let file = body + Array(SHA256.hash(data: body))
        let started = ContinuousClock.now
        await #expect(throws: VaultError.damaged) {
            _ = try await fixture.vault.importItems(from: file, passphrase: SecretBytes(utf8: "whatever"))
        }
        #expect(ContinuousClock.now - started < .seconds(5), "no 128 GiB derivation was attempted")
    }
}
