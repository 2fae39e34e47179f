@testable import Sesame
import Testing

/// The names each per-app record kind is kept under are on disk (vault
/// settings, files and directories), so one store type for both kinds must
/// keep every one of them as the two stores before it wrote them.
@Suite("AppRecordKind: the names on disk")
struct AppRecordKindTests {
    @Test("B6: each kind keeps its vault setting prefix, file extension and default directory")
    func names() {
        #expect(AppRecordKind.appPasscode.settingName("com.example.notes") == "app-passcode/com.example.notes")
        #expect(AppRecordKind.featureProtection.settingName("com.example.money") == "feature-protection/com.example.money")
        #expect(AppRecordKind.appPasscode.fileExtension == "passcode")
        #expect(AppRecordKind.featureProtection.fileExtension == "features")
        let environment = ["XDG_CONFIG_HOME": "/config", "HOME": "/home/owner"]
        #expect(FileAppRecordStore.defaultDirectory(for: .appPasscode, environment: environment) == "/config/sesame/passcodes")
        #expect(FileAppRecordStore.defaultDirectory(for: .featureProtection, environment: environment) == "/config/sesame/features")
    }

    @Test("B6: a bad app identifier fails with the error of the kind's own API")
    func errors() async {
        await #expect(throws: AppPasscodeError.self) {
            try await FileAppRecordStore(directory: "/nonexistent", kind: .appPasscode).save([0], appIdentifier: "../escape")
        }
        await #expect(throws: FeatureProtectionError.self) {
            try await FileAppRecordStore(directory: "/nonexistent", kind: .featureProtection).save([0], appIdentifier: "../escape")
        }
    }
}
