import Crypto
import Testing
@testable import Sesame

/// Known answers for every derivation in ``KeyDerivation``: the published
/// vectors of the primitives (RFC 5869 HKDF-SHA256, RFC 7914 scrypt) through
/// Sesame's own wrappers, and Sesame's own derivations with fixed inputs and
/// checked-in outputs. The independent values were computed with Python's
/// `cryptography` and `hashlib`, not with swift-crypto.
///
/// Sesame derives 32 bytes where the RFCs list 42, 82 or 64: HKDF's and
/// scrypt's (PBKDF2's) output for a shorter length is a prefix of the longer
/// one, so each expectation is the first 32 bytes of the published value.
@Suite("Security core: KeyDerivation known answers")
struct KeyDerivationTests {
    struct HKDFVector: Sendable, CustomTestStringConvertible {
        var name: String
        var ikm: [UInt8]
        var salt: [UInt8]
        var info: [UInt8]
        var okm: [UInt8]
        var testDescription: String { name }
    }

    /// RFC 5869 Appendix A, test cases 1–3 (SHA-256).
    static let rfc5869: [HKDFVector] = [
        HKDFVector(name: "A.1 basic", ikm: [UInt8](repeating: 0x0b, count: 22), salt: hex("000102030405060708090a0b0c"),
                   info: hex("f0f1f2f3f4f5f6f7f8f9"),
                   okm: hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")),
        HKDFVector(name: "A.2 long inputs", ikm: Array(0x00...0x4f), salt: Array(0x60...0xaf), info: Array(0xb0...0xff),
                   okm: hex("""
                       b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09
                       da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87
                       """)),
        HKDFVector(name: "A.3 empty salt and info", ikm: [UInt8](repeating: 0x0b, count: 22), salt: [], info: [],
                   okm: hex("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")),
    ]

    @Test("RFC 5869 A.1–A.3: KeyDerivation.hkdf gives the published OKM (its first 32 bytes)", arguments: rfc5869)
    func hkdfVectors(_ vector: HKDFVector) {
        let okm = KeyDerivation.hkdf(SymmetricKey(data: vector.ikm), salt: vector.salt, info: vector.info).bytes
        #expect(okm.hexString == vector.okm.prefix(32).hexString)
    }

    @Test("RFC 5869 A.3 through subkey: an empty vault identifier and an empty label are the RFC's empty salt and info")
    func subkeyIsHKDF() {
        let vector = Self.rfc5869[2]
        let key = KeyDerivation.subkey(SymmetricKey(data: vector.ikm), vaultID: [], label: "")
        #expect(key.bytes.hexString == vector.okm.prefix(32).hexString)
    }

    @Test("subkey: a fixed master key, vault identifier and label give fixed bytes")
    func subkeyKnownAnswer() {
        let key = KeyDerivation.subkey(SymmetricKey(data: Array(0x40...0x5f)), vaultID: Array(0xa0...0xaf), label: Labels.rowMAC)
        #expect(key.bytes.hexString == "de36be553452cb1e6fa5b54b84079b8ec694a5966aa1c5c0caa2b3b76dd46f89")
    }

    @Test("classKey: the access control, accessibility, factor mask, domain state and password key all go in, in a fixed layout")
    func classKeyKnownAnswer() throws {
        let accessControl = try AccessControl([.biometryCurrentSet, .applicationPassword], combination: .and)
        let key = KeyDerivation.classKey(
            SymmetricKey(data: Array(0x40...0x5f)),
            vaultID: Array(0xa0...0xaf),
            accessControl: accessControl,
            accessibility: .whenUnlockedThisDeviceOnly,
            factors: [.biometryCurrentSet, .applicationPassword],
            domainState: [UInt8](repeating: 7, count: 32),
            passwordKey: SymmetricKey(data: Array(0x20...0x3f))
        )
        // HKDF(ikm: master ‖ field(domain state) ‖ field(password key), salt: vault id,
        //      info: "sesame.vault.v1.class" ‖ field(accessibility) ‖ field(canonical access control) ‖ mask 0x14)
        #expect(key.bytes.hexString == "05f9b371cdac48643d715e09cefa758dc84944efd8bdf8431816dc64d86c50cd")
    }

    struct ScryptVector: Sendable, CustomTestStringConvertible {
        var password: String
        var salt: String
        var log2N: UInt8
        var r: UInt32
        var p: UInt32
        var derived: [UInt8]
        var testDescription: String { "N=\(1 << Int(log2N)), r=\(r), p=\(p)" }
    }

    /// RFC 7914 §12, without its fourth vector (N = 1048576): at a gigabyte
    /// of memory it is over ``ScryptCost``'s bounds and too slow for a test.
    static let rfc7914: [ScryptVector] = [
        ScryptVector(password: "", salt: "", log2N: 4, r: 1, p: 1, derived: hex("""
            77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442
            fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906
            """)),
        ScryptVector(password: "password", salt: "NaCl", log2N: 10, r: 8, p: 16, derived: hex("""
            fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162
            2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640
            """)),
        ScryptVector(password: "pleaseletmein", salt: "SodiumChloride", log2N: 14, r: 8, p: 1, derived: hex("""
            7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2
            d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887
            """)),
    ]

    @Test("RFC 7914 §12: passwordKey gives the published scrypt output (its first 32 bytes)", arguments: rfc7914)
    func scryptVectors(_ vector: ScryptVector) async throws {
        let cost = try #require(ScryptCost(log2N: vector.log2N, r: vector.r, p: vector.p))
        let password = SecretBytes(utf8: vector.password)
        let salt = Array(vector.salt.utf8)
        let expected = vector.derived.prefix(32).hexString
        #expect(try KeyDerivation.passwordKey(password, salt: salt, cost: cost).bytes.hexString == expected)
        #expect(try await KeyDerivation.passwordKeyOffPool(password, salt: salt, cost: cost).bytes.hexString == expected)
    }
}
