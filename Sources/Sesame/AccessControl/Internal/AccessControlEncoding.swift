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
    /// The flags' frozen bits (``AccessControl/Flag/frozenBit``), for the
    /// wrapping encoding, the class key's info and the wrapping's AD.
    var mask: UInt8 {
        reduce(0) { $0 | $1.frozenBit }
    }

    /// The flags of `mask`; `nil` when it has a bit no flag owns (an edited
    /// row, or one from a newer Sesame): never silently dropped.
    init?(mask: UInt8) {
        let flags = Set(AccessControl.Flag.allCases.filter { mask & $0.frozenBit != 0 })
        guard flags.mask == mask else { return nil }
        self = flags
    }
}
