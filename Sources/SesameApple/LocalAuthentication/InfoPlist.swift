// Source: NSFaceIDUsageDescription — "Include the NSFaceIDUsageDescription key in your app's
// Info.plist file if your app allows biometric authentication. Otherwise, authorization requests
// may fail." (LAContext overview, https://developer.apple.com/documentation/localauthentication/lacontext;
// key reference: https://developer.apple.com/documentation/bundleresources/information-property-list/nsfaceidusagedescription)
// Bundle.object(forInfoDictionaryKey:) — https://developer.apple.com/documentation/foundation/bundle/object(forinfodictionarykey:)
import Foundation

/// Reads keys of the app's Info.plist. A seam, so that tests can check the
/// `NSFaceIDUsageDescription` guard without an app bundle.
public struct InfoPlist: Sendable {
    /// The key Face ID (and Optic ID) requires before the first evaluation.
    public static let faceIDUsageDescriptionKey = "NSFaceIDUsageDescription"

    private let lookup: @Sendable (String) -> String?

    /// Creates a reader.
    ///
    /// - Parameter lookup: Returns the string value of a key, or `nil`.
    public init(lookup: @escaping @Sendable (String) -> String?) {
        self.lookup = lookup
    }

    /// The main bundle's Info.plist.
    public static let main = InfoPlist { key in
        Bundle.main.object(forInfoDictionaryKey: key) as? String
    }

    /// Whether the app declares why it uses Face ID; an empty string counts as missing.
    public var hasFaceIDUsageDescription: Bool {
        guard let text = lookup(Self.faceIDUsageDescriptionKey) else { return false }
        return !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// Why a face evaluation is refused without `NSFaceIDUsageDescription`.
    public static let missingFaceIDUsageDescription =
        "NSFaceIDUsageDescription is missing from the app's Info.plist: add it with a sentence saying why the app uses Face ID"
}
