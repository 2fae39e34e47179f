import Foundation
@testable import SesameCommandLine
import Testing

/// Which Secret backend xdg-desktop-portal would call, found as the portal
/// finds it, and the one file setup writes where the desktop names none
/// (SPEC D12).
@Suite("Secret portal route")
struct SecretPortalRouteTests {
    /// A throw-away HOME and portal folder with the given `.portal` files and configuration files.
    struct Machine {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-portal-\(UUID().uuidString)").path
        var portals: String { root + "/portals" }
        var directories: UserDirectories { UserDirectories(environment: ["HOME": root + "/home", "XDG_DATA_DIRS": root + "/share"]) }

        init(portals files: [String: String], configurations: [String: String] = [:]) throws {
            try FileManager.default.createDirectory(atPath: portals, withIntermediateDirectories: true)
            for (name, text) in files { try text.write(toFile: portals + "/" + name, atomically: true, encoding: .utf8) }
            for (path, text) in configurations {
                let full = root + "/" + path
                try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try text.write(toFile: full, atomically: true, encoding: .utf8)
            }
        }

        func route(_ version: (Int, Int), desktop: String) async -> SecretPortalRoute {
            await SecretPortalRoute.current(environment: ["XDG_CURRENT_DESKTOP": desktop], directories: directories, portalDirectory: portals,
                                            version: .some((major: version.0, minor: version.1)), systemConfigDirectories: [root + "/etc"])
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    static let sesame = "[portal]\nDBusName=org.freedesktop.secrets\nInterfaces=org.freedesktop.impl.portal.Secret\nUseIn=gnome\n"
    static let gnomeKeyring = "[portal]\nDBusName=org.freedesktop.secrets\nInterfaces=org.freedesktop.impl.portal.Secret\nUseIn=gnome\n"
    static let kde = "[portal]\nDBusName=org.freedesktop.impl.portal.desktop.kde\nInterfaces=org.freedesktop.impl.portal.FileChooser;\nUseIn=KDE\n"

    @Test("D12: xdg-desktop-portal 1.16 on KDE falls back to any Secret backend: sesame.portal, and setup writes nothing")
    func oldPortalFallsBack() async throws {
        let machine = try Machine(portals: ["sesame.portal": Self.sesame, "kde.portal": Self.kde])
        defer { machine.remove() }
        let route = await machine.route((1, 16), desktop: "KDE")
        #expect(route.chosen?.backend.name == "sesame")
        #expect(route.chosen?.backend.busName == "org.freedesktop.secrets")
        #expect(route.userConfiguration(configHome: machine.directories.configHome) == nil)
    }

    @Test("D12: 1.17 and later on GNOME: gnome-portals.conf names gnome-keyring, whose file names org.freedesktop.secrets")
    func gnomeConfigurationNamesTheKeyring() async throws {
        let machine = try Machine(portals: ["sesame.portal": Self.sesame, "gnome-keyring.portal": Self.gnomeKeyring],
                                  configurations: ["share/xdg-desktop-portal/gnome-portals.conf":
                                                   "[preferred]\ndefault=gnome;gtk;\norg.freedesktop.impl.portal.Secret=gnome-keyring;\n"])
        defer { machine.remove() }
        let route = await machine.route((1, 18), desktop: "GNOME")
        #expect(route.chosen?.backend.name == "gnome-keyring")
        #expect(route.chosen?.why.hasSuffix("gnome-portals.conf names gnome-keyring") == true, "\(String(describing: route.chosen?.why))")
        #expect(route.userConfiguration(configHome: machine.directories.configHome) == nil)
    }

    @Test("D12: 1.17 and later on KDE with default=kde: nothing is called; setup's file keeps the desktop's choices and adds Sesame's")
    func configurationWithoutSecretGetsOneLine() async throws {
        let machine = try Machine(portals: ["sesame.portal": Self.sesame, "kde.portal": Self.kde],
                                  configurations: ["share/xdg-desktop-portal/kde-portals.conf": "[preferred]\ndefault=kde;\n"])
        defer { machine.remove() }
        let route = await machine.route((1, 18), desktop: "KDE")
        #expect(route.chosen == nil, "UseIn=gnome does not serve KDE from 1.17 on")
        let file = try #require(route.userConfiguration(configHome: machine.directories.configHome))
        #expect(file.path == machine.directories.configHome + "/xdg-desktop-portal/kde-portals.conf")
        #expect(file.text.contains("[preferred]\norg.freedesktop.impl.portal.Secret=sesame\ndefault=kde;\n"), "\(file.text)")

        // Written there, it is the file the portal reads first, and it names Sesame.
        try FileManager.default.createDirectory(atPath: machine.directories.configHome + "/xdg-desktop-portal", withIntermediateDirectories: true)
        try file.text.write(toFile: file.path, atomically: true, encoding: .utf8)
        let after = await machine.route((1, 18), desktop: "KDE")
        #expect(after.configuration?.path == file.path)
        #expect(after.chosen?.backend.name == "sesame")
        #expect(SecretPortalRoute.preferred(file.text)["default"] == ["kde"])
    }

    @Test("D12: no portal installed, or no Secret backend at all: nothing is chosen and setup has nothing to write")
    func nothingToCall() async throws {
        let machine = try Machine(portals: ["kde.portal": Self.kde])
        defer { machine.remove() }
        #expect(await machine.route((1, 16), desktop: "KDE").chosen == nil)
        #expect(await machine.route((1, 18), desktop: "KDE").userConfiguration(configHome: machine.directories.configHome) == nil)
        let none = await SecretPortalRoute.current(environment: [:], directories: machine.directories, portalDirectory: machine.portals,
                                                   version: .some(nil), systemConfigDirectories: [])
        #expect(none.chosen == nil)
    }
}
