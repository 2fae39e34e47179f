import Foundation

/// Which Secret Service the desktop portal hands a sandboxed app's
/// `RetrieveSecret` to, found as xdg-desktop-portal finds it (SPEC D12).
///
/// Up to 1.16 the portal takes the first `.portal` file whose `UseIn`
/// names the desktop, else any file with the Secret interface. From 1.17 it
/// reads one `portals.conf` (the first of `DESKTOP-portals.conf` and
/// `portals.conf` in the user's, then the system's config and data folders)
/// and falls back to `UseIn` alone: on a desktop whose configuration names
/// no Secret backend, no provider is asked and every sandboxed app fails.
/// There setup writes the user's own copy of that configuration with one
/// line added, which `--undo` takes back.
struct SecretPortalRoute: Sendable {
    static let interface = "org.freedesktop.impl.portal.Secret"
    static let daemon = "/usr/libexec/xdg-desktop-portal"

    /// A backend's `.portal` file.
    struct Backend: Sendable, Equatable {
        /// Its name, the file's without `.portal` (what portals.conf names).
        var name: String
        var path: String
        var busName: String
        var useIn: [String]
    }

    /// The portal's version, `nil` when it is not installed.
    var version: (major: Int, minor: Int)?
    /// The `.portal` files that offer the Secret interface, by name.
    var backends: [Backend]
    /// The portals.conf the portal reads, when it reads one.
    var configuration: (path: String, text: String)?
    /// The desktops of `XDG_CURRENT_DESKTOP`, lower case.
    var desktops: [String]

    /// Whether this portal reads portals.conf (1.17 and later).
    var readsConfiguration: Bool { version.map { $0.major > 1 || $0.minor >= 17 } ?? false }

    /// What the portal would call, and why; `nil` when nothing.
    var chosen: (backend: Backend, why: String)? {
        guard version != nil else { return nil }
        if readsConfiguration, let configuration {
            let preferred = Self.preferred(configuration.text)
            if let names = preferred[Self.interface] ?? preferred["default"],
               let match = backends.first(where: { names.contains($0.name) || names.contains("*") }) {
                return (match, "\(configuration.path) names \(match.name)")
            }
        }
        for desktop in desktops {
            if let match = backends.first(where: { $0.useIn.contains { $0.lowercased() == desktop } }) {
                return (match, "\(match.path) is for \(desktop)")
            }
        }
        if !readsConfiguration, let any = backends.first {
            // 1.16's last resort: the first file that offers the interface, whichever desktop it names.
            return (any, backends.count == 1 ? "\(any.path) is the only choice"
                : "no file names this desktop; the first of \(backends.count) that offer the Secret interface is \(any.path)")
        }
        return nil
    }

    /// The file setup writes where the desktop names no Secret backend: the
    /// configuration the portal reads now with `org.freedesktop.impl.portal.Secret=sesame`
    /// added, under the user's config folder so that it is read first.
    func userConfiguration(configHome: String) -> (path: String, text: String)? {
        guard readsConfiguration, chosen == nil, backends.contains(where: { $0.name == "sesame" }) else { return nil }
        let name = configuration.map { URL(fileURLWithPath: $0.path).lastPathComponent } ?? "portals.conf"
        var lines = (configuration?.text ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = "\(Self.interface)=sesame"
        if let section = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "[preferred]" }) {
            lines.insert(line, at: section + 1)
        } else {
            lines += ["[preferred]", line]
        }
        let header = "# Written by `sesame setup secret-service`: sandboxed apps' secrets go to the Secret Service\n"
            + "# (Sesame), as the desktop named no Secret backend. `sesame setup secret-service --undo` removes it.\n"
        return (configHome + "/xdg-desktop-portal/" + name, header + lines.joined(separator: "\n") + (lines.last == "" ? "" : "\n"))
    }

    /// The `[preferred]` entries of a portals.conf, each a list.
    static func preferred(_ text: String) -> [String: [String]] {
        var inPreferred = false
        var entries: [String: [String]] = [:]
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") { inPreferred = line == "[preferred]"; continue }
            guard inPreferred, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            entries[key] = line[line.index(after: equals)...].split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return entries
    }

    /// The route on this machine, for this user.
    static func current(environment: [String: String], directories: UserDirectories, portalDirectory: String? = nil,
                        version explicitVersion: (major: Int, minor: Int)?? = nil, systemConfigDirectories: [String]? = nil) async -> SecretPortalRoute {
        let version: (major: Int, minor: Int)?
        if let explicitVersion { version = explicitVersion } else { version = await installedVersion(environment: environment) }
        let folder = portalDirectory ?? environment["XDG_DESKTOP_PORTAL_DIR"] ?? "/usr/share/xdg-desktop-portal/portals"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".portal") }.sorted()
        let backends = names.compactMap { name -> Backend? in
            guard let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) else { return nil }
            return backend(String(name.dropLast(".portal".count)), path: folder + "/" + name, text: text)
        }
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.lowercased() }
        let configDirectories = [directories.configHome] + (systemConfigDirectories ?? Self.systemConfigDirectories(environment))
            + [directories.dataHome] + directories.dataDirectories
        var configuration: (String, String)?
        search: for directory in configDirectories.map({ $0 + "/xdg-desktop-portal" }) {
            for name in desktops.map({ "\($0)-portals.conf" }) + ["portals.conf"] {
                if let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8) {
                    configuration = (directory + "/" + name, text)
                    break search
                }
            }
        }
        return SecretPortalRoute(version: version, backends: backends, configuration: configuration, desktops: desktops)
    }

    private static func systemConfigDirectories(_ environment: [String: String]) -> [String] {
        let listed = (environment["XDG_CONFIG_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return (listed.isEmpty ? ["/etc/xdg"] : listed) + ["/etc"]
    }

    /// A `.portal` file's backend, when it offers the Secret interface.
    static func backend(_ name: String, path: String, text: String) -> Backend? {
        var values: [String: String] = [:]
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            values[line[..<equals].trimmingCharacters(in: .whitespaces)] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        let interfaces = (values["Interfaces"] ?? "").split(separator: ";").map(String.init)
        guard interfaces.contains(interface), let busName = values["DBusName"] else { return nil }
        return Backend(name: name, path: path, busName: busName, useIn: (values["UseIn"] ?? "").split(separator: ";").map(String.init))
    }

    /// `xdg-desktop-portal --version`'s x.y; `nil` when it is not installed.
    static func installedVersion(environment: [String: String]) async -> (major: Int, minor: Int)? {
        guard FileManager.default.isExecutableFile(atPath: daemon),
              let output = try? await HostTool.run(daemon, ["--version"], environment: environment).output else { return nil }
        let numbers = output.split(whereSeparator: { !$0.isNumber && $0 != "." }).first?.split(separator: ".").compactMap { Int($0) } ?? []
        return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
    }
}
