#if os(Linux)
import Foundation
import Glibc
import SesameLinuxTesting
import SesameTesting

/// A PAM service `/etc/pam.d/<name>` accepting only `password` for the user
/// running the tests, through pam_pwdfile. The `sesame` binary reads only the
/// system's PAM configuration (a private directory would let anyone who
/// controls its arguments pick the rules), so tests install one for the run
/// and remove it afterwards: it needs root, which CI has.
struct PAMTestService {
    static let isPwdfileInstalled = ["/lib/x86_64-linux-gnu/security", "/usr/lib/x86_64-linux-gnu/security", "/lib/security", "/usr/lib/security"]
        .contains { FileManager.default.fileExists(atPath: "\($0)/pam_pwdfile.so") }

    let password: String
    let name = "sesame-test-\(UUID().uuidString.prefix(8).lowercased())"
    let directory = NSTemporaryDirectory() + "sesame-pam-cli-\(UUID().uuidString)"

    var serviceFile: String { "/etc/pam.d/\(name)" }

    func install() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let user = String(cString: getpwuid(geteuid()).pointee.pw_name)
        try PwdfileAccount.write(user: user, password: password, to: "\(directory)/pwdfile")
        let lines = ["auth required pam_pwdfile.so pwdfile=\(directory)/pwdfile nodelay", "account required pam_permit.so"]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: serviceFile))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: serviceFile)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
#endif
