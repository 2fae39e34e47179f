import Crypto
import Testing
@testable import Sesame

/// Known answers for ``Envelope``: a blob sealed outside Sesame (Python
/// `cryptography`'s AES-GCM) with a fixed key and nonce must open, and the
/// associated data Sesame builds must be the checked-in bytes. Sealing draws
/// its own nonce and takes none from the caller, so that direction is
/// checked by its layout: Sesame's output, re-sealed by AES-GCM under the
/// nonce it starts with, is the same bytes.
@Suite("Security core: Envelope known answers")
struct EnvelopeTests {
    static let key = SymmetricKey(data: Array(0x00...0x1f) as [UInt8])
    static let nonce = hex("cafebabefacedbaddecaf888")
    static let plaintext = Array("Sesame envelope known answer".utf8)

    /// "sesame.item-value", format version 1, then the fields "golden" and "account", each after its 4-byte length.
    static let associatedData = hex("736573616d652e6974656d2d76616c75650100000006676f6c64656e000000076163636f756e74")

    /// nonce ‖ ciphertext ‖ tag.
    static let sealed = hex("""
        cafebabefacedbaddecaf888
        d9c6d347c71f6f7e287d38b1146dec1f664eaf26b1390b1a3da86103
        1855dab690776c1fda79e4bfb63172f2
        """)

    static func itemValueData() -> [UInt8] {
        Envelope.associatedData(Labels.itemValue) {
            $0.field("golden")
            $0.field("account")
        }
    }

    @Test("The associated data is the label, the format version and the length-prefixed fields, byte for byte")
    func associatedDataLayout() {
        #expect(Self.itemValueData().hexString == Self.associatedData.hexString)
        #expect(Envelope.associatedData(Labels.setting).hexString == Array("sesame.setting".utf8).hexString + "01")
    }

    @Test("A blob sealed elsewhere with a fixed key and nonce opens to the known plaintext")
    func opensKnownBlob() {
        #expect(Envelope.open(Self.sealed, key: Self.key, associatedData: Self.itemValueData()) == Self.plaintext)
        #expect(Envelope.open(Self.sealed[...], key: Self.key, associatedData: Self.itemValueData()) == Self.plaintext)
    }

    @Test("The known blob does not open under other associated data, another key, or with any byte changed")
    func knownBlobIsBound() {
        let otherData = Envelope.associatedData(Labels.itemValue) {
            $0.field("golde")
            $0.field("naccount")
        }
        #expect(Envelope.open(Self.sealed, key: Self.key, associatedData: otherData) == nil)
        #expect(Envelope.open(Self.sealed, key: SymmetricKey(data: [UInt8](repeating: 0, count: 32)), associatedData: Self.itemValueData()) == nil)
        for index in [0, 11, 12, 39, 40, Self.sealed.count - 1] {
            var changed = Self.sealed
            changed[index] ^= 0x80
            #expect(Envelope.open(changed, key: Self.key, associatedData: Self.itemValueData()) == nil, "byte \(index)")
        }
    }

    @Test("seal writes nonce ‖ ciphertext ‖ tag: AES-GCM under its leading 12 bytes gives the same bytes, and they open")
    func sealLayout() throws {
        let sealed = try Envelope.seal(Self.plaintext, key: Self.key, associatedData: Self.itemValueData())
        #expect(sealed.count == 12 + Self.plaintext.count + 16)
        let nonce = try AES.GCM.Nonce(data: sealed.prefix(12))
        let expected = try AES.GCM.seal(Self.plaintext, using: Self.key, nonce: nonce, authenticating: Self.itemValueData())
        let combined = try #require(expected.combined)
        #expect(sealed.hexString == combined.hexString)
        #expect(Envelope.open(sealed, key: Self.key, associatedData: Self.itemValueData()) == Self.plaintext)
    }

    @Test("seal draws a fresh nonce each time")
    func freshNonces() throws {
        let first = try Envelope.seal(Self.plaintext, key: Self.key, associatedData: Self.itemValueData())
        let second = try Envelope.seal(Self.plaintext, key: Self.key, associatedData: Self.itemValueData())
        #expect(first.prefix(12) != second.prefix(12))
    }
}
