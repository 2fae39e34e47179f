#if os(Linux)
import Foundation
import SesameLinux
import SesameSecretService

/// Who serves `org.freedesktop.secrets` on the session bus now, and whom the
/// bus would start: what `setup` decides by and `doctor` reports.
struct SecretServiceProvider: Sendable, Encodable {
    /// The owner's process and program, as the bus and /proc tell them.
    var pid: Int32
    var executable: String?

    /// Whether it is a Sesame binary (this one, or another `sesame`).
    var isSesame: Bool { AgentFiles.isSesame(executable) }

    /// Whether it is gnome-keyring's daemon, which never lets go of the name
    /// when asked (`--replace`): it has to be stopped.
    var isGnomeKeyring: Bool { executable.map { ($0 as NSString).lastPathComponent == "gnome-keyring-daemon" } ?? false }

    /// A name for messages: `gnome-keyring-daemon (pid 1234)`.
    var description: String {
        "\(executable.map { ($0 as NSString).lastPathComponent } ?? "a program of another user or namespace") (pid \(pid))"
    }

    /// The current owner, or `nil` when nobody holds the name.
    /// - Throws: ``CommandFailure`` (exit 7) when the bus cannot be reached.
    static func current(address: String) async throws -> SecretServiceProvider? {
        let name = SecretServiceServer.busName
        let pid: UInt32?
        do {
            pid = try await DBusClient.withConnection(address: address) { client throws(DBusError) -> UInt32? in
                do throws(DBusError) {
                    let reply = try client.call("org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                                member: "GetConnectionUnixProcessID", [.string(name)])
                    guard case .uint32(let pid)? = reply.first else { throw DBusError.failed("the bus gave no pid") }
                    return pid
                } catch where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                    return nil
                }
            }
        } catch {
            throw CommandFailure(status: .notAvailable, message: "the session bus does not answer: \(error.description.escapingControlCharacters())")
        }
        guard let pid else { return nil }
        return SecretServiceProvider(pid: Int32(bitPattern: pid), executable: ProcessExecutable.path(of: Int32(bitPattern: pid)))
    }

    /// Stops this provider and waits, up to 5 s, until the name is free.
    ///
    /// A provider that a systemd user unit runs is stopped through the unit,
    /// or restarted when `restartingUnit` (gnome-keyring's unit then starts
    /// with the components its drop-in leaves it); any other is sent
    /// SIGTERM. It must be this user's process: the bus said it holds the name.
    /// - Returns: How it was stopped, for setup's line.
    /// - Throws: ``CommandFailure`` when it could not be stopped or still holds the name.
    func stop(address: String, environment: [String: String], restartingUnit: Bool) async throws -> String {
        let how: String
        if let unit = ProcessInstance.unit(ofProcess: pid), HostTool.hasUserManager(environment: environment) {
            let verb = restartingUnit ? "restart" : "stop"
            let result = try await HostTool.run("systemctl", ["--user", verb, unit], environment: environment)
            guard result.status == 0 else {
                throw CommandFailure(status: .failure, message: "systemctl --user \(verb) \(unit) failed (exit \(result.status)): \(result.output)")
            }
            how = "\(restartingUnit ? "restarted" : "stopped") its unit \(unit)"
        } else {
            guard kill(pid, SIGTERM) == 0 else {
                throw CommandFailure(status: .failure, message: "cannot stop \(description): \(String(cString: strerror(errno)))")
            }
            how = "stopped \(description)"
        }
        for _ in 0..<50 {
            if try await Self.current(address: address)?.pid != pid { return how }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CommandFailure(status: .failure, message: "\(description) still holds org.freedesktop.secrets 5 s after it was told to stop")
    }

    /// Asks the bus to start whichever provider its activation files name.
    static func activate(address: String) async throws(CommandFailure) {
        do {
            _ = try await DBusClient.withConnection(address: address) { client throws(DBusError) in
                try client.call("org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                member: "StartServiceByName", [.string(SecretServiceServer.busName), .uint32(0)])
            }
        } catch {
            throw CommandFailure(status: .notAvailable, message: "the bus could not start the Secret Service: \(error.description.escapingControlCharacters())")
        }
    }
}

/// A D-Bus activation file that names `org.freedesktop.secrets`.
struct ActivationFile: Sendable, Encodable, Equatable {
    var path: String
    /// Its `Exec=` line.
    var exec: String

    /// The program `exec` starts (its first word).
    var program: String { String(exec.split(separator: " ").first ?? "") }

    /// The file the session bus would use: the first folder of the search
    /// order holding one wins.
    static func winning(in directories: UserDirectories) -> ActivationFile? {
        for folder in directories.sessionServiceDirectories {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".service") }.sorted()
            for name in names {
                if let file = read(folder + "/" + name) { return file }
            }
        }
        return nil
    }

    /// The file at `path`, if it names the Secret Service.
    static func read(_ path: String) -> ActivationFile? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var name: String?
        var exec: String?
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("Name=") { name = String(trimmed.dropFirst(5)) }
            if trimmed.hasPrefix("Exec=") { exec = String(trimmed.dropFirst(5)) }
        }
        guard name == SecretServiceServer.busName, let exec else { return nil }
        return ActivationFile(path: path, exec: exec)
    }
}
#endif
