#if os(Linux)
import Foundation
import SesameLinuxTesting
import SesameTesting
import Testing
@testable import SesameLinux

/// A private PAM configuration directory with pam_pwdfile services and a
/// password file generated for the test. PAM itself is real; nothing under
/// /etc is read or written (pam_start_confdir).
struct PAMTestEnvironment {
    static let moduleDirectories = ["/lib/x86_64-linux-gnu/security", "/usr/lib/x86_64-linux-gnu/security",
                                    "/lib/security", "/usr/lib/security", "/lib64/security"]

    static func moduleExists(_ name: String) -> Bool {
        moduleDirectories.contains { FileManager.default.fileExists(atPath: "\($0)/\(name)") }
    }

    static let isPwdfileInstalled = moduleExists("pam_pwdfile.so")
    static let skipReason: Comment = "pam_pwdfile is not installed: apt-get install libpam-pwdfile"

    static let user = "sesame-test-alice"
    static let password = "c0rrect horse"

    let root: URL
    var configDirectory: String { root.appendingPathComponent("pam.d").path }
    var passwordFile: String { root.appendingPathComponent("pwdfile").path }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-pam-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("pam.d"), withIntermediateDirectories: true)
        try PwdfileAccount.write(user: Self.user, password: Self.password, to: passwordFile)
    }

    /// Adds `<configDirectory>/<service>` with these lines.
    func addService(_ service: String, _ lines: [String]) throws {
        try write(lines.joined(separator: "\n") + "\n", to: "\(configDirectory)/\(service)")
    }

    /// The usual test service: pam_pwdfile for auth, pam_permit for account
    /// (pam_pwdfile has no account module).
    func addPasswordService(_ service: String = "sesame-test", nodelay: Bool = true, before: [String] = [],
                            account: String = "account required pam_permit.so") throws {
        let auth = "auth required pam_pwdfile.so pwdfile=\(passwordFile)" + (nodelay ? " nodelay" : "")
        try addService(service, before + [auth, account])
    }

    func verifier(service: String = "sesame-test", user: String = PAMTestEnvironment.user) throws -> PAMPasscodeVerifier {
        PAMPasscodeVerifier(configuration: try .init(service: service, user: user, configDirectory: configDirectory))
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

struct EnvironmentError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The threads of this process, from /proc (Linux).
enum ProcessThreads {
    struct Info: Equatable {
        var id: String
        var name: String
        var state: String
    }

    static func all() -> [Info] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { id in
            guard let name = read("/proc/self/task/\(id)/comm"), let stat = read("/proc/self/task/\(id)/stat") else { return nil }
            // "tid (comm) S ...": the state follows the last ')'.
            let state = stat.split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? "?"
            return Info(id: id, name: name, state: state)
        }
    }

    static func named(_ name: String) -> [Info] {
        all().filter { $0.name == name }
    }

    /// The number of the system call thread `id` is in
    /// (`/proc/self/task/<id>/syscall`); `nil` while it runs or once it ended.
    static func systemCall(_ id: String) -> Int? {
        read("/proc/self/task/\(id)/syscall")?.split(separator: " ").first.flatMap { Int($0) }
    }

    static var currentName: String {
        read("/proc/thread-self/comm") ?? "?"
    }

    private static func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
#endif
