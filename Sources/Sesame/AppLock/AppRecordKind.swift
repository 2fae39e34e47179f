/// Which per-app record an ``AppRecordStore`` keeps. Each kind has its own
/// namespace (a vault setting prefix, a directory and file extension), so
/// one vault or one configuration directory keeps both side by side; the
/// names are on disk, so they never change.
public enum AppRecordKind: String, Sendable, Hashable, CaseIterable {
    /// ``AppPasscode``'s record: its hash, attempt history and settings (SPEC E3).
    case appPasscode = "app-passcode"
    /// ``FeatureProtection``'s sealed record of protected features (SPEC B6).
    case featureProtection = "feature-protection"

    /// The vault setting that keeps `appIdentifier`'s record of this kind.
    func settingName(_ appIdentifier: String) -> String {
        rawValue + "/" + appIdentifier
    }

    /// The directory under `$XDG_CONFIG_HOME/sesame` that keeps this kind's files.
    var directoryName: String {
        switch self {
        case .appPasscode: "passcodes"
        case .featureProtection: "features"
        }
    }

    /// The extension of this kind's files.
    var fileExtension: String {
        switch self {
        case .appPasscode: "passcode"
        case .featureProtection: "features"
        }
    }

    /// The error of the API this kind belongs to, for a record that cannot be used.
    func storageError(_ message: String) -> any Error {
        switch self {
        case .appPasscode: AppPasscodeError.storage(message)
        case .featureProtection: FeatureProtectionError.storage(message)
        }
    }
}
