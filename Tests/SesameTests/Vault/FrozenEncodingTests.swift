@testable import Sesame
import Testing

/// What the vault persists about access controls is frozen: reordering or
/// extending `AccessControl.Flag` must change none of it (the golden vault
/// checks the stored bytes; this pins the values they are made of).
@Suite("Frozen encodings of access controls")
struct FrozenEncodingTests {
    @Test("D2: Each flag keeps its bit and its place in the canonical text")
    func flagBits() {
        let bits: [AccessControl.Flag: UInt8] = [
            .userPresence: 1, .biometryAny: 2, .biometryCurrentSet: 4, .devicePasscode: 8, .applicationPassword: 16, .privateKeyUsage: 32,
        ]
        #expect(Set(bits.keys) == Set(AccessControl.Flag.allCases), "a new flag needs a frozen bit here")
        for (flag, bit) in bits { #expect(flag.frozenBit == bit, "\(flag)") }
        #expect(AccessControl.Flag.allCases.sorted().map(\.rawValue)
                == ["userPresence", "biometryAny", "biometryCurrentSet", "devicePasscode", "applicationPassword", "privateKeyUsage"])
    }

    @Test("D2: Canonical encodings and masks round-trip; an unknown bit is rejected, not dropped")
    func canonicalText() throws {
        let either = try AccessControl([.devicePasscode, .biometryAny], combination: .or)
        #expect(either.canonicalEncoding == "or:biometryAny,devicePasscode")
        #expect(AccessControl(canonicalEncoding: "or:biometryAny,devicePasscode") == either)
        #expect(AccessControl(canonicalEncoding: "or:devicePasscode,biometryAny") == nil, "only the canonical order is accepted")
        let both = try AccessControl([.applicationPassword, .biometryCurrentSet], combination: .and)
        #expect(both.canonicalEncoding == "and:biometryCurrentSet,applicationPassword")
        #expect(Set<AccessControl.Flag>([.biometryCurrentSet, .applicationPassword]).mask == 0b10100)
        #expect(Set<AccessControl.Flag>(mask: 0b10100) == [.biometryCurrentSet, .applicationPassword])
        #expect(Set<AccessControl.Flag>(mask: 0b0100_0000) == nil)
        #expect(Set<AccessControl.Flag>(mask: 0) == [])
    }
}
