import Sesame
@testable import SesameApple
import Testing

@Suite("SPEC D2: AccessControl → SecAccessControlCreateFlags")
struct AccessControlFlagTests {
    @Test("SPEC D2: Bit values equal Apple's SecAccessControlCreateFlags")
    func bits() {
        #expect(KeychainAccessControl.Bit.userPresence.rawValue == 1 << 0)
        #expect(KeychainAccessControl.Bit.biometryAny.rawValue == 1 << 1)
        #expect(KeychainAccessControl.Bit.biometryCurrentSet.rawValue == 1 << 3)
        #expect(KeychainAccessControl.Bit.devicePasscode.rawValue == 1 << 4)
        #expect(KeychainAccessControl.Bit.or.rawValue == 1 << 14)
        #expect(KeychainAccessControl.Bit.and.rawValue == 1 << 15)
        #expect(KeychainAccessControl.Bit.privateKeyUsage.rawValue == 1 << 30)
        #expect(KeychainAccessControl.Bit.applicationPassword.rawValue == 1 << 31)
    }

    @Test("SPEC D2: Each single flag", arguments: AccessControl.Flag.allCases)
    func single(flag: AccessControl.Flag) throws {
        let translated = KeychainAccessControl(try AccessControl([flag]), accessibility: .whenUnlockedThisDeviceOnly)
        #expect(translated.flags == KeychainAccessControl.bit(for: flag).rawValue)
        #expect(!translated.contains(.or) && !translated.contains(.and))
    }

    @Test("SPEC D2: Every valid combination, with or and and", arguments: [AccessControl.Combination.or, .and])
    func combinations(combination: AccessControl.Combination) throws {
        let all = AccessControl.Flag.allCases
        for mask in 1..<(1 << all.count) {
            let flags = Set(all.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element))
            guard let accessControl = try? AccessControl(flags, combination: combination) else {
                #expect(flags.isSuperset(of: [.biometryAny, .biometryCurrentSet]))
                continue
            }
            let translated = KeychainAccessControl(accessControl, accessibility: .afterFirstUnlock)
            var expected: UInt = flags.reduce(0) { $0 | KeychainAccessControl.bit(for: $1).rawValue }
            if accessControl.userFactors.count > 1 {
                expected |= (combination == .or ? KeychainAccessControl.Bit.or : .and).rawValue
            }
            #expect(translated.flags == expected, "\(accessControl)")
            // Never both combinators (SPEC D2).
            #expect(!(translated.contains(.or) && translated.contains(.and)))
        }
    }

    @Test("SPEC D2: The two README examples")
    func examples() throws {
        let token = KeychainAccessControl(try AccessControl([.biometryCurrentSet, .applicationPassword], combination: .and), accessibility: .whenUnlockedThisDeviceOnly)
        #expect(token.flags == 0x8 | 0x8000_0000 | 0x8000)
        let presence = KeychainAccessControl(try AccessControl([.biometryAny, .devicePasscode], combination: .or), accessibility: .whenUnlocked)
        #expect(presence.flags == 0x2 | 0x10 | 0x4000)
    }

    @Test("SPEC D2: Accessibility classes name their kSecAttrAccessible constant", arguments: ItemAccessibility.allCases)
    func accessibility(value: ItemAccessibility) {
        let name = KeychainAccessibility.constantName(value)
        #expect(name == "kSecAttrAccessible" + value.rawValue.prefix(1).uppercased() + value.rawValue.dropFirst())
    }
}
