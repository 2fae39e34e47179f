/// Every role `sesame setup` knows, in the order it sets them up and
/// `sesame doctor` checks them: the one place that names them all.
enum SetupRoles {
    /// The roles; a new one is a file conforming to ``SetupRole``, added here.
    static let all: [any SetupRole] = [SecretServiceSetup(), SSHAgentSetup(), GitSetup(), PasskeySetup()]

    /// What `sesame setup` with no role takes over.
    static var takeover: [any SetupRole] { all.filter(\.isTakenOverByDefault) }

    /// The role `sesame setup` calls `name`, if any.
    static func named(_ name: String) -> (any SetupRole)? {
        all.first { $0.name == name }
    }

    /// `names` in words: `a, b and c` (or `or`).
    static func list(_ names: [String], _ last: String = "and") -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " \(last) " + names.last!
    }
}
