import ArgumentParser
import Sesame

/// The feature a `sesame feature` command is about.
struct FeatureName: ParsableArguments {
    @Argument(help: ArgumentHelp("The feature, e.g. deploy (letters, digits, '.', '-', '_').", valueName: "name"))
    var name: String

    func validate() throws {
        try Self.check(name)
    }

    var feature: Feature { Feature(rawValue: name) }

    /// Names stay plain so that `feature list` output cannot be garbled by
    /// tabs, newlines or terminal escapes in a name.
    static func check(_ name: String) throws {
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
        }
        guard allowed, !name.isEmpty, name.count <= 128 else {
            throw ValidationError("\"\(name)\" is not a feature name: use 1 to 128 letters, digits, '.', '-' or '_'")
        }
    }
}

/// ``FeatureProtectionPolicy`` in the command line's words, the same as
/// `sesame authenticate --policy`.
enum FeaturePolicyArgument: String, ExpressibleByArgument, CaseIterable {
    /// A fingerprint only; when the reader is gone, the feature stays closed.
    case biometrics
    /// A fingerprint, or the login password.
    case deviceOwner = "device-owner"

    var policy: FeatureProtectionPolicy {
        switch self {
        case .biometrics: .biometrics
        case .deviceOwner: .biometricsOrDevicePasscode
        }
    }

    /// The CLI spelling of any stored policy, including one only the
    /// library can set.
    static func name(_ policy: FeatureProtectionPolicy) -> String {
        switch policy {
        case .biometrics: "biometrics"
        case .biometricsOrDevicePasscode: "device-owner"
        case .biometricsOrAppPasscode: "app-passcode"
        }
    }
}
