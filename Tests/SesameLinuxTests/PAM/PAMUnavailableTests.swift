#if os(Linux)
import Foundation
import Sesame
import Testing
@testable import SesameLinux

/// What happens when PAM cannot be used. Needs no PAM module.
struct PAMUnavailableTests {
    static let libpamLoads = if case .loaded = PAMLibrary.load() { true } else { false }

    @Test("SPEC A2: a missing service file is notSet(.notConfigured) and verify is unavailable, without calling PAM",
          .enabled(if: libpamLoads, "libpam.so.0 is not installed"))
    func missingServiceFile() async throws {
        let environment = try PAMTestEnvironment()
        defer { environment.remove() }
        // An `other` that would accept anyone: Sesame must not fall back to it.
        try environment.addService("other", ["auth required pam_permit.so", "account required pam_permit.so"])
        let verifier = try environment.verifier(service: "sesame-missing")
        let conversation = FakePasscodeConversation(.answer("anything"))

        let expected = UnavailableReason(
            .notConfigured,
            "PAM service 'sesame-missing' is not configured: create \(environment.configDirectory)/sesame-missing (see sesame(1), FILES)"
        )
        #expect(await verifier.currentState() == .notSet(expected))
        #expect(await verifier.verify(using: conversation) == .unavailable(expected))
        #expect(conversation.prompts.isEmpty)
    }

    @Test("SPEC G: The system service's missing file names /etc/pam.d",
          .enabled(if: libpamLoads && !FileManager.default.fileExists(atPath: "/etc/pam.d/sesame-nonexistent")))
    func missingSystemServiceFile() async throws {
        let verifier = PAMPasscodeVerifier(configuration: try .init(service: "sesame-nonexistent", user: "root"))
        let expected = UnavailableReason(
            .notConfigured,
            "PAM service 'sesame-nonexistent' is not configured: create /etc/pam.d/sesame-nonexistent (see sesame(1), FILES)"
        )
        #expect(await verifier.currentState() == .notSet(expected))
    }

    @Test("SPEC A2: a missing libpam is notSet(.libraryMissing) with dlerror's text, never a crash")
    func missingLibrary() async throws {
        let configuration = try PAMPasscodeVerifier.Configuration(service: "sesame", user: "root")
        let verifier = PAMPasscodeVerifier(configuration: configuration, libraryName: "libpam-sesame-absent.so.0")
        guard case .notSet(let reason) = await verifier.currentState() else {
            Issue.record("expected notSet")
            return
        }
        #expect(reason.kind == .libraryMissing)
        #expect(reason.detail.hasPrefix("libpam-sesame-absent.so.0 could not be loaded: "))
        #expect(reason.detail.contains("cannot open shared object file"))
        #expect(await verifier.verify(using: FakePasscodeConversation(.answer("x"))) == .unavailable(reason))
    }

    @Test("SPEC G: Configuration refuses names that would leave the PAM directory or be cut at a NUL")
    func configurationValidation() throws {
        for service in ["", ".", "..", "../etc/passwd", "a/b", "a\u{0}b"] {
            #expect(throws: PAMPasscodeVerifier.ConfigurationError.invalidServiceName(service)) {
                try PAMPasscodeVerifier.Configuration(service: service, user: "root")
            }
        }
        #expect(throws: PAMPasscodeVerifier.ConfigurationError.invalidUserName("")) {
            try PAMPasscodeVerifier.Configuration(user: "")
        }
        #expect(throws: PAMPasscodeVerifier.ConfigurationError.invalidConfigDirectory("relative/pam.d")) {
            try PAMPasscodeVerifier.Configuration(user: "root", configDirectory: "relative/pam.d")
        }
    }

    @Test("SPEC G: Configuration defaults: service sesame, the process's own user, the system directory")
    func configurationDefaults() throws {
        let configuration = try PAMPasscodeVerifier.Configuration()
        #expect(configuration.service == "sesame")
        #expect(configuration.user == String(cString: getpwuid(geteuid())!.pointee.pw_name))
        #expect(configuration.configDirectory == nil)
    }

    @Test("SPEC A2, G: PAM return codes: rejections are not told apart; broken setups are unavailable")
    func resultMapping() {
        typealias Map = PAMResultMapping
        #expect(Map.authentication(0) == .success)
        for code: Int32 in [7, 10, 11, 20] { #expect(Map.authentication(code) == .rejected, "auth \(code)") }
        #expect(Map.authentication(9) == .unavailable(.permissionDenied))
        for code: Int32 in [3, 4, 19, 26, 28] { #expect(Map.authentication(code) == .unavailable(.notConfigured), "auth \(code)") }
        #expect(Map.accountManagement(0) == .success)
        for code: Int32 in [6, 7, 12, 13] { #expect(Map.accountManagement(code) == .rejected, "acct \(code)") }
        #expect(Map.accountManagement(28) == .unavailable(.notConfigured))
    }
}
#endif
