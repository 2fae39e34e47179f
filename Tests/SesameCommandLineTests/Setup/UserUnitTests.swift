import Foundation
@testable import SesameCommandLine
import Testing

/// The unit names the sources hold in ``UserUnit`` are the files packaging
/// installs: a unit a role runs is templated, installed and verified, and
/// every packaged unit belongs to a role, so `doctor` checks it.
@Suite("sesame's user units")
struct UserUnitTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    private func text(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    @Test("every unit a role runs has its template in contrib/systemd, and install.sh and check-package.sh name it")
    func rolesUnitsArePackaged() throws {
        let install = try text("scripts/install.sh")
        let check = try text("scripts/check-package.sh")
        for unit in SetupRoles.all.flatMap(\.units) {
            #expect(FileManager.default.fileExists(atPath: root + "/contrib/systemd/\(unit.name).in"), "\(unit.name)")
            #expect(install.contains(unit.name), "install.sh does not install \(unit.name)")
            #expect(check.contains("/usr/lib/systemd/user/\(unit.name)"), "check-package.sh does not verify \(unit.name)")
        }
        #expect(FileManager.default.fileExists(atPath: root + "/contrib/dbus/\(UserUnit.secretsActivation.name).in"))
        #expect(install.contains("dbus_file=\(UserUnit.secretsActivation.name)"))
    }

    @Test("every unit packaging installs is one some role runs, named in the sources by UserUnit")
    func packagedUnitsBelongToRoles() throws {
        let templates = try FileManager.default.contentsOfDirectory(atPath: root + "/contrib/systemd").filter { $0.hasSuffix(".in") }
        let run = Set(SetupRoles.all.flatMap(\.units).map(\.name))
        #expect(Set(templates.map { String($0.dropLast(3)) }) == run)
        for name in run { #expect(UserUnit(rawValue: name) != nil) }
    }

    @Test("the names are the files' names: explicit, as systemctl and the bus know them")
    func names() {
        #expect(UserUnit.allCases.map(\.name) == [
            "sesame-secret-service.service", "sesame-ssh-agent.socket", "sesame-ssh-agent.service", "sesame-passkey.service",
            "org.freedesktop.secrets.service", "gnome-keyring-daemon.service",
        ])
        #expect(UserUnit.gnomeKeyring.dropInFolder == "gnome-keyring-daemon.service.d")
    }
}
