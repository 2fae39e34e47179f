#if canImport(Glibc)
import Glibc
#endif
import Sesame
#if os(Linux)
import SesameLinux
#endif

/// Whether this user can create the virtual FIDO device `sesame passkey
/// serve` shows browsers, and if not, what stops it and the fix: one answer
/// for `setup passkey` and `doctor`.
///
/// `/dev/uhid` is opt-in: whoever can open it can create a keyboard and type
/// into any window, so the package gives it to the members of one group
/// (``group``), whom the administrator adds, not to every process of the
/// seat's user.
enum PasskeyDeviceAccess {
    /// The group the package's udev rule gives `/dev/uhid` to (0660).
    static let group = "sesame-uhid"

    /// What decides the answer, read from the system by ``current(device:group:)``.
    struct State: Equatable {
        var device: String
        var user: String
        /// Whether this process may open `device` for writing (a member of
        /// the group, root, or a rule the administrator wrote).
        var deviceUsable: Bool
        var deviceExists: Bool
        var groupExists: Bool
        /// Whether the group database lists the user in the group.
        var member: Bool
        /// Whether this process carries the group: a login that began before
        /// the user was added does not.
        var sessionHasGroup: Bool
    }

    /// `nil` when `/dev/uhid` is this user's to open; else what is wrong
    /// and the commands that fix it.
    static func problem() -> (detail: String, fix: String)? {
        #if os(Linux)
        problem(current(device: UHIDDevice.defaultPath, group: group))
        #else
        ("passkeys are served on Linux only", "none: on Apple platforms passkeys belong to the system")
        #endif
    }

    /// Every reason in `state` that stops the user, and the commands in the order an administrator runs them.
    static func problem(_ state: State) -> (detail: String, fix: String)? {
        guard !state.deviceUsable else { return nil }
        let user = state.user.escapingControlCharacters()
        var details: [String] = []
        var fixes: [String] = []
        if !state.groupExists {
            details.append("the \(group) group that may open \(state.device) does not exist")
            fixes.append("install the sesame package (it creates the group and its udev rule), or from source, "
                         + Doctor.asRoot("groupadd --system \(group), copy contrib/udev/70-sesame-uhid.rules to /etc/udev/rules.d/ "
                                         + "and run udevadm control --reload-rules"))
        }
        if !state.member {
            details.append("\(user) is not in the \(group) group (opt-in: its members' programs can create a keyboard and type into any window)")
            fixes.append(Doctor.asRoot("usermod -aG \(group) \(user)") + ", then log out and in again")
        } else if !state.sessionHasGroup {
            details.append("\(user) was added to \(group) after this login began")
            fixes.append("log out and in again")
        }
        if !state.deviceExists {
            details.append("\(state.device) does not exist (the uhid module is not loaded)")
            fixes.append(Doctor.asRoot("modprobe uhid (at every boot: echo uhid > /etc/modules-load.d/sesame-uhid.conf)"))
        } else if state.groupExists && state.member && state.sessionHasGroup {
            details.append("\(state.device) is not open to the \(group) group (its udev rule has not been applied)")
            fixes.append(Doctor.asRoot("udevadm control --reload-rules && udevadm trigger --action=add --sysname-match=uhid") + ", or reboot")
        }
        return (details.joined(separator: "; "), fixes.joined(separator: "; then "))
    }

    #if os(Linux)
    /// The state of `device` and `group` for this process's user.
    static func current(device: String, group: String) -> State {
        let uid = getuid()
        let entry = getpwuid(uid)
        let user = entry.map { String(cString: $0.pointee.pw_name) } ?? String(uid)
        let primary = entry?.pointee.pw_gid ?? getgid()
        let usable = access(device, W_OK | R_OK) == 0
        let exists = access(device, F_OK) == 0
        guard let gid = getgrnam(group)?.pointee.gr_gid else {
            return State(device: device, user: user, deviceUsable: usable, deviceExists: exists, groupExists: false,
                         member: uid == 0, sessionHasGroup: uid == 0)
        }
        // Root opens any node: the group is for everyone else.
        let member = uid == 0 || primary == gid || databaseGroups(of: user, primary: primary).contains(gid)
        let session = uid == 0 || getegid() == gid || processGroups().contains(gid)
        return State(device: device, user: user, deviceUsable: usable, deviceExists: exists, groupExists: true,
                     member: member, sessionHasGroup: session)
    }

    private static func databaseGroups(of user: String, primary: gid_t) -> [gid_t] {
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(user, primary, &groups, &count) == -1 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(user, primary, &groups, &count) != -1 else { return [] }
        }
        return Array(groups.prefix(Int(count)))
    }

    private static func processGroups() -> [gid_t] {
        let count = getgroups(0, nil)
        guard count > 0 else { return [] }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let got = getgroups(count, &groups)
        return got > 0 ? Array(groups.prefix(Int(got))) : []
    }
    #endif
}
