/// The canonical text of an access control, as stored in a row and bound
/// into keys and associated data: `or:biometryAny,devicePasscode`.
///
/// Sorted flags make equal access controls encode alike, so a row's access
/// control cannot be re-encoded to a different but equivalent string.
extension AccessControl {
    var canonicalEncoding: String {
        "\(combination.rawValue):" + flags.sorted().map(\.rawValue).joined(separator: ",")
    }

    init?(canonicalEncoding text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let combination = Combination(rawValue: String(parts[0])) else { return nil }
        var flags: Set<Flag> = []
        for name in parts[1].split(separator: ",") {
            guard let flag = Flag(rawValue: String(name)) else { return nil }
            flags.insert(flag)
        }
        guard let value = try? AccessControl(flags, combination: combination),
              value.canonicalEncoding == text else { return nil }
        self = value
    }

    /// The factor sets that each get a wrapping of the item key: one per
    /// flag for `or`, a single set of all flags for `and`.
    var wrappingFactorSets: [Set<Flag>] {
        let factors = userFactors
        if factors.isEmpty { return [[]] }
        if combination == .or { return factors.sorted().map { [$0] } }
        return [factors]
    }
}

extension Set<AccessControl.Flag> {
    /// A bit per flag, in declaration order, for the wrapping encoding.
    var mask: UInt8 {
        var mask: UInt8 = 0
        for (index, flag) in AccessControl.Flag.allCases.enumerated() where contains(flag) { mask |= 1 << UInt8(index) }
        return mask
    }

    init(mask: UInt8) {
        self = Set(AccessControl.Flag.allCases.enumerated().filter { mask & (1 << UInt8($0.offset)) != 0 }.map(\.element))
    }
}
