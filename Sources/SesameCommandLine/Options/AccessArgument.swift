import ArgumentParser
import Sesame

/// `--access` and `--accessibility` in the command line's words.
enum AccessArgument {
    /// The CLI names of the flags, in kebab case like every other option.
    static let names: [(String, AccessControl.Flag)] = [
        ("user-presence", .userPresence),
        ("biometry-any", .biometryAny),
        ("biometry-current-set", .biometryCurrentSet),
        ("device-passcode", .devicePasscode),
        ("app-password", .applicationPassword),
    ]

    /// Parses `a,b` (any one of them) or `a+b` (all of them).
    ///
    /// - Throws: `ValidationError` (exit 2) for unknown flags, for both
    ///   separators at once (SPEC D2 has no precedence to give `a,b+c` a
    ///   meaning), and for contradictory flags.
    static func parse(_ text: String) throws -> AccessControl {
        let hasOr = text.contains(","), hasAnd = text.contains("+")
        if hasOr && hasAnd {
            throw ValidationError("--access joins flags with `,` (any one) or `+` (all), not both: \"\(text)\"")
        }
        var flags: Set<AccessControl.Flag> = []
        for word in text.split(separator: hasAnd ? "+" : ",", omittingEmptySubsequences: false) {
            guard let flag = names.first(where: { $0.0 == word })?.1 else {
                throw ValidationError("unknown --access flag \"\(word)\"; use \(names.map(\.0).joined(separator: ", "))")
            }
            flags.insert(flag)
        }
        do {
            return try AccessControl(flags, combination: hasAnd ? .and : .or)
        } catch {
            throw ValidationError("--access \(text): \(error)")
        }
    }

    /// The CLI spelling of `control`: `none`, `a,b` or `a+b`.
    static func describe(_ control: AccessControl) -> String {
        let words = control.userFactors.sorted().map { flag in names.first { $0.1 == flag }?.0 ?? flag.rawValue }
        guard !words.isEmpty else { return "none" }
        return words.joined(separator: control.combination == .and ? "+" : ",")
    }
}

/// ``ItemAccessibility`` by kebab-case name, e.g. `after-first-unlock`.
struct AccessibilityArgument: ExpressibleByArgument {
    var value: ItemAccessibility

    init(_ value: ItemAccessibility) { self.value = value }

    init?(argument: String) {
        guard let value = ItemAccessibility.allCases.first(where: { Self.name($0) == argument }) else { return nil }
        self.value = value
    }

    static var allValueStrings: [String] { ItemAccessibility.allCases.map(name) }

    var defaultValueDescription: String { Self.name(value) }

    /// `whenUnlockedThisDeviceOnly` → `when-unlocked-this-device-only`.
    static func name(_ value: ItemAccessibility) -> String {
        var result = ""
        for character in value.rawValue {
            if character.isUppercase { result += "-" + character.lowercased() } else { result.append(character) }
        }
        return result
    }
}
