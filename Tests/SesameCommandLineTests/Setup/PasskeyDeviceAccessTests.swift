#if os(Linux)
import Foundation
@testable import SesameCommandLine
import Testing

/// `/dev/uhid` is opt-in (issue 44, finding 3): whoever opens it can create a
/// keyboard and type into any window, so the package gives it to one group
/// and `setup passkey` and `doctor` name the commands that opt a user in.
@Suite("/dev/uhid: the sesame-uhid group, and what setup passkey asks of the administrator")
struct PasskeyDeviceAccessTests {
    private func state(usable: Bool = false, exists: Bool = true, group: Bool = true, member: Bool = false, session: Bool = false)
        -> PasskeyDeviceAccess.State {
        PasskeyDeviceAccess.State(device: "/dev/uhid", user: "ana", deviceUsable: usable, deviceExists: exists, groupExists: group,
                                  member: member, sessionHasGroup: session)
    }

    @Test("SPEC P: a usable device needs nothing")
    func usable() {
        #expect(PasskeyDeviceAccess.problem(state(usable: true)) == nil)
    }

    @Test("SPEC P: a user outside the group is told the usermod command to run as root (not assuming sudo), the new login, and what membership grants")
    func notMember() throws {
        let problem = try #require(PasskeyDeviceAccess.problem(state()))
        #expect(problem.detail.contains("ana is not in the sesame-uhid group"), "\(problem.detail)")
        #expect(problem.detail.contains("type into any window"), "\(problem.detail)")
        #expect(problem.fix == "as root (e.g. with sudo): usermod -aG sesame-uhid ana, then log out and in again", "\(problem.fix)")
    }

    @Test("SPEC P: a member whose login predates the membership is told to log in again, not to run usermod")
    func staleLogin() throws {
        let problem = try #require(PasskeyDeviceAccess.problem(state(member: true)))
        #expect(problem.fix == "log out and in again", "\(problem.fix)")
    }

    @Test("SPEC P: no uhid module and no group: every command, in order")
    func nothing() throws {
        let problem = try #require(PasskeyDeviceAccess.problem(state(exists: false, group: false)))
        let fix = problem.fix
        let order = ["groupadd --system sesame-uhid", "usermod -aG sesame-uhid ana", "modprobe uhid"].map { fix.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order.map { $0! } == order.map { $0! }.sorted(), "\(fix)")
    }

    @Test("SPEC P: a member with the group in this login but a node without it: the rule is to be applied")
    func ruleNotApplied() throws {
        let problem = try #require(PasskeyDeviceAccess.problem(state(member: true, session: true)))
        #expect(problem.fix.contains("udevadm trigger"), "\(problem.fix)")
        #expect(!problem.fix.contains("usermod"), "\(problem.fix)")
    }

    @Test("SPEC D9: a user name from the password database is shown with its control characters escaped")
    func escapedUser() throws {
        var hostile = state()
        hostile.user = "ana\u{1B}]0;owned\u{07}"
        let problem = try #require(PasskeyDeviceAccess.problem(hostile))
        #expect(!problem.fix.contains("\u{1B}") && !problem.detail.contains("\u{1B}"), "\(problem.fix)")
    }

    @Test("SPEC P: the group is read from the system: this process's own primary group counts as membership")
    func readsTheGroupDatabase() throws {
        let own = try #require(getgrgid(getegid())).pointee
        let read = PasskeyDeviceAccess.current(device: "/nonexistent/uhid", group: String(cString: own.gr_name))
        #expect(read.groupExists && read.member && read.sessionHasGroup && !read.deviceExists && !read.deviceUsable)
        let missing = PasskeyDeviceAccess.current(device: "/nonexistent/uhid", group: "sesame-no-such-group")
        #expect(!missing.groupExists)
    }

    @Test("SPEC P: the udev rule the package installs gives /dev/uhid to that group only (0660), not to the seat's user (no uaccess)")
    func udevRule() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let rules = try String(contentsOf: root.appendingPathComponent("contrib/udev/70-sesame-uhid.rules"), encoding: .utf8)
        let rule = try #require(rules.split(separator: "\n").first { !$0.hasPrefix("#") && $0.contains("KERNEL==\"uhid\"") })
        #expect(rule.contains("GROUP=\"\(PasskeyDeviceAccess.group)\"") && rule.contains("MODE=\"0660\""), "\(rule)")
        #expect(!rule.contains("uaccess"), "\(rule)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("contrib/udev/sesame-uhid.conf").path),
                "uhid would be loaded at boot on every machine")
    }
}
#endif
