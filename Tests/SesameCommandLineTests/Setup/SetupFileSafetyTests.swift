#if os(Linux)
import Foundation
import SesameTesting
import Testing

/// `sesame setup` and `--undo` over links and private files (issue 44,
/// finding 7), black-box through `setup secret-service` with no session bus,
/// which writes the user's activation file and nothing else of the bus's.
@Suite("sesame setup and --undo over links and private files", .serialized, .timeLimit(.minutes(2)))
struct SetupFileSafetyTests {
    let place: VaultHome
    let activation: String
    let token: String

    init() throws {
        place = try VaultHome()
        activation = place.file(".local/share/dbus-1/services/org.freedesktop.secrets.service")
        token = place.file("private/token.conf")
        try FileManager.default.createDirectory(atPath: (activation as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: (token as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: token, contents: Data("API_TOKEN=s3cr3t\n".utf8), attributes: [.posixPermissions: 0o600]))
    }

    private func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    private func isLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    @Test("SPEC G: a link where setup would write (to a 0600 file holding a token) is refused, saying why; link and target stay as they were")
    func linkRefused() async throws {
        defer { place.remove() }
        try await place.createVault()
        try FileManager.default.createSymbolicLink(atPath: activation, withDestinationPath: token)
        let setup = try await place.sesame(["setup", "secret-service", "--no-interaction"])
        #expect(setup.status != 0, "\(setup.stdout)")
        #expect(setup.stderr.contains("is a symbolic link") && setup.stderr.contains("move it away"), "\(setup.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: activation) == token)
        #expect(try String(contentsOfFile: token, encoding: .utf8) == "API_TOKEN=s3cr3t\n")
        #expect(try mode(token) == 0o600)
        // Nothing was changed, so there is nothing to undo, and undo touches neither.
        let undo = try await place.sesame(["setup", "secret-service", "--undo"])
        #expect(undo.status == 0, "\(undo.stderr)")
        let tokenMode = try mode(token)
        #expect(isLink(activation) && tokenMode == 0o600)
    }

    @Test("SPEC G: a private (0600) file setup replaces stays 0600, and --undo puts its text back at 0600, never 0644")
    func privateModeKept() async throws {
        defer { place.remove() }
        try await place.createVault()
        #expect(FileManager.default.createFile(atPath: activation, contents: Data("# mine\nAPI_TOKEN=s3cr3t\n".utf8),
                                               attributes: [.posixPermissions: 0o600]))
        let setup = try await place.sesame(["setup", "secret-service", "--no-interaction"])
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(try String(contentsOfFile: activation, encoding: .utf8).contains("Name=org.freedesktop.secrets"))
        #expect(try mode(activation) == 0o600)
        let undo = try await place.sesame(["setup", "secret-service", "--undo"])
        #expect(undo.status == 0 && undo.stdout.contains("restored"), "\(undo.stdout) \(undo.stderr)")
        #expect(try String(contentsOfFile: activation, encoding: .utf8) == "# mine\nAPI_TOKEN=s3cr3t\n")
        #expect(try mode(activation) == 0o600)
    }

    @Test("SPEC G: a file the user changed after setup is left by --undo, which says so")
    func userChangeKept() async throws {
        defer { place.remove() }
        try await place.createVault()
        let setup = try await place.sesame(["setup", "secret-service", "--no-interaction"])
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(try mode(activation) == 0o644)
        try "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=/usr/local/bin/my-provider\n".write(toFile: activation, atomically: false, encoding: .utf8)
        let undo = try await place.sesame(["setup", "secret-service", "--undo"])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stdout.contains("left \(activation) as it is: it changed since"), "\(undo.stdout)")
        #expect(try String(contentsOfFile: activation, encoding: .utf8).contains("my-provider"))
    }

    @Test("SPEC G: a link put where setup wrote is left by --undo, which says so: the text it replaced is not written through it")
    func linkAfterSetupKept() async throws {
        defer { place.remove() }
        try await place.createVault()
        try "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=/bin/false\n".write(toFile: activation, atomically: false, encoding: .utf8)
        #expect(try await place.sesame(["setup", "secret-service", "--no-interaction"]).status == 0)
        try FileManager.default.removeItem(atPath: activation)
        try FileManager.default.createSymbolicLink(atPath: activation, withDestinationPath: token)
        let undo = try await place.sesame(["setup", "secret-service", "--undo"])
        #expect(undo.stdout.contains("left \(activation) as it is"), "\(undo.stdout) \(undo.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: activation) == token)
        #expect(try String(contentsOfFile: token, encoding: .utf8) == "API_TOKEN=s3cr3t\n")
        #expect(try mode(token) == 0o600)
    }
}
#endif
