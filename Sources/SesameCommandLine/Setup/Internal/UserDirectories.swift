import Foundation

/// The XDG base directories of the user running `sesame`, and the session
/// bus's service folders in the order dbus-daemon searches them.
struct UserDirectories: Sendable {
    let home: String
    let dataHome: String
    let configHome: String
    let stateHome: String
    let dataDirectories: [String]

    init(environment: [String: String]) {
        func absolute(_ name: String) -> String? { environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil } }
        home = absolute("HOME") ?? "/"
        dataHome = absolute("XDG_DATA_HOME") ?? home + "/.local/share"
        configHome = absolute("XDG_CONFIG_HOME") ?? home + "/.config"
        stateHome = absolute("XDG_STATE_HOME") ?? home + "/.local/state"
        let listed = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        dataDirectories = listed.isEmpty ? ["/usr/local/share", "/usr/share"] : listed
    }

    /// Where a user's own D-Bus activation files go; it outranks the system's.
    var userServiceDirectory: String { dataHome + "/dbus-1/services" }

    /// The session bus's activation folders, first match wins
    /// (dbus-daemon's `<standard_session_servicedirs/>`).
    var sessionServiceDirectories: [String] {
        var folders = [userServiceDirectory] + dataDirectories.map { $0 + "/dbus-1/services" }
        if !folders.contains("/usr/share/dbus-1/services") { folders.append("/usr/share/dbus-1/services") }
        return folders
    }

    /// The folders systemd's user manager loads units from, that a package or
    /// `scripts/install.sh` writes to.
    var userUnitDirectories: [String] {
        [configHome + "/systemd/user", dataHome + "/systemd/user", "/etc/systemd/user", "/usr/local/lib/systemd/user", "/usr/lib/systemd/user"]
    }

    /// The file of `unit` where the user manager would load it from, if installed.
    func installedUnit(_ unit: UserUnit) -> String? {
        userUnitDirectories.map { $0 + "/" + unit.name }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Where `sesame setup` keeps what `role` replaced, for `--undo`.
    func setupRecord(_ role: any SetupRole) -> String { stateHome + "/sesame/setup/\(role.name).json" }
}
