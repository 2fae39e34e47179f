import Sesame
@testable import SesameLinux
import Testing

/// The snap or desktop app unit a process's cgroup names (SPEC D13).
@Suite("D13: a process's cgroup names its snap or its desktop app unit")
struct CgroupAppTests {
    static func finding(_ text: String) -> CgroupApp.Finding {
        CgroupApp.finding(inCgroupFile: Array(text.utf8))
    }

    @Test("D13: a snap's unit on the unified hierarchy gives the snap's name", arguments: [
        ("0::/user.slice/user-1000.slice/user@1000.service/app.slice/snap.firefox.firefox-2a6b4e3c-1d2f-4b5a-9c8d-7e6f5a4b3c2d.scope\n", "firefox"),
        ("0::/user.slice/user-1000.slice/user@1000.service/app.slice/snap.firefox.firefox.2a6b4e3c-1d2f-4b5a-9c8d-7e6f5a4b3c2d.scope\n", "firefox"),
        ("0::/system.slice/snap.lxd.daemon.service\n", "lxd"),
        ("0::/user.slice/user-1000.slice/user@1000.service/app.slice/snap.node_22.node.4a5b.scope\n", "node_22"),
        ("1:name=systemd:/user.slice/user-1000.slice/user@1000.service/apps.slice/snap.portal-test.app.scope\n", "portal-test"),
    ])
    func snapUnit(_ text: String, _ name: String) {
        #expect(Self.finding(text) == .snap(name))
    }

    @Test("D13: cgroup v1's freezer group names the snap too, among the other hierarchies (xdg-desktop-portal's example)")
    func snapFreezer() {
        let text = """
            12:pids:/user.slice/user-1000.slice/user@1000.service
            11:perf_event:/
            8:memory:/user.slice/user-1000.slice/user@1000.service/apps.slice/apps-org.gnome.Terminal.slice/vte-spawn-228ae109.scope
            3:freezer:/snap.portal-test
            1:name=systemd:/user.slice/user-1000.slice/user@1000.service/apps.slice/apps-org.gnome.Terminal.slice/vte-spawn-228ae109.scope
            0::/user.slice/user-1000.slice/user@1000.service/apps.slice/apps-org.gnome.Terminal.slice/vte-spawn-228ae109.scope

            """
        #expect(Self.finding(text) == .snap("portal-test"))
        // Only the freezer, systemd and unified hierarchies count.
        #expect(Self.finding("4:memory:/snap.firefox\n0::/\n") == .neither)
    }

    @Test("D13: a snap element that is no valid snap name, or two snaps, is no identity", arguments: [
        "0::/app.slice/snap.Firefox.firefox.scope\n",
        "0::/app.slice/snap..scope\n",
        "0::/app.slice/snap.-x.app.scope\n",
        "0::/app.slice/snap.a--b.app.scope\n",
        "0::/app.slice/snap.123.app.scope\n",
        "0::/app.slice/snap.x_.app.scope\n",
        "0::/app.slice/snap.x_ABC.app.scope\n",
        "0::/app.slice/snap.\\x2fetc.app.scope\n",
        "3:freezer:/snap.one\n0::/app.slice/snap.two.app.scope\n",
    ])
    func snapRefused(_ text: String) {
        #expect(Self.finding(text) == .unreadable, "\(text.escapingControlCharacters())")
    }

    @Test("D13: desktop app units give their app id, as xdg-desktop-portal's own cases read them", arguments: [
        ("app-gnome-org.gnome.Evolution\\x2dalarm\\x2dnotify-2437.scope", "org.gnome.Evolution-alarm-notify"),
        ("app-gnome-org.gnome.Epiphany-182352.scope", "org.gnome.Epiphany"),
        ("app-glib-spice\\x2dvdagent-1839.scope", "spice-vdagent"),
        ("app-KDE-org.kde.okular@12345.service", "org.kde.okular"),
        ("app-firefox.service", "firefox"),
        ("app-org.kde.amarok.service", "org.kde.amarok"),
        ("app-gnome-org.gnome.SettingsDaemon.DiskUtilityNotify-autostart.service", "org.gnome.SettingsDaemon.DiskUtilityNotify"),
        ("app-com.obsproject.Studio-d70acc38b5154a3a8b4a60accc4b15f4.scope", "com.obsproject.Studio"),
        ("app-firefox-jcfppqx.scope", "firefox"),
        ("app-gnome-firefox.service", "firefox"),
        ("app-flatpak-org.example.App-12345.scope", "org.example.App"),
    ])
    func appUnit(_ unit: String, _ id: String) {
        #expect(CgroupApp.appID(ofUnit: unit) == id)
        #expect(Self.finding("0::/user.slice/user-1000.slice/user@1000.service/app.slice/\(unit)\n") == .appUnit(id))
    }

    @Test("D13: other units, and escapes that decode to a path, a control character or bytes that are not UTF-8, are not app units", arguments: [
        "app-not-a-well-formed-unit-name",
        "vte-spawn-228ae109.scope",
        "app.slice",
        "apps-org.gnome.Terminal.slice",
        "app-gnome-org.gnome.Terminal-92502.slice",
        "app-.service",
        "app-\\x2fetc\\x2fpasswd.service",
        "app-evil\\x0aline.service",
        "app-bad\\xff.service",
        "app-" + String(repeating: "a", count: 260) + ".service",
    ])
    func notAppUnit(_ unit: String) {
        #expect(CgroupApp.appID(ofUnit: unit) == nil, "\(unit)")
        #expect(Self.finding("0::/user.slice/\(unit)\n") == .neither)
    }

    @Test("D13: the unit is the last element of the unified path, else of the systemd hierarchy's; a process at the root has none")
    func whichLine() {
        #expect(Self.finding("1:name=systemd:/user.slice/app-gnome-org.example.Old-1.scope\n0::/user.slice/app-gnome-org.example.New-1.scope\n")
            == .appUnit("org.example.New"))
        #expect(Self.finding("2:cpu:/x\n1:name=systemd:/user.slice/app-gnome-org.example.Old-1.scope\n") == .appUnit("org.example.Old"))
        #expect(Self.finding("0::/\n") == .neither)
        #expect(Self.finding("0::/user.slice/app-gnome-org.example.App-1.scope/subgroup\n") == .neither)
        // This machine's own, as the kernel prints it.
        #expect(Self.finding("9:name=systemd:/\n8:pids:/\n4:memory:/process_api/cbeb0536add8b48cc10d3ae586dd3003\n0::/\n") == .neither)
    }

    @Test("D13: text that is not the kernel's format is no identity: a cgroup named with a newline cannot add a line", arguments: [
        "",
        "garbage\n",
        "0:/no-controllers-field\n",
        "x::/\n",
        "0::relative\n",
        // A group whose name holds "\n0::/…snap.firefox…" repeats hierarchy 0.
        "0::/user.slice/evil\n0::/snap.firefox.firefox.scope\n",
    ])
    func malformed(_ text: String) {
        #expect(Self.finding(text) == .unreadable, "\(text.escapingControlCharacters())")
        #expect(CgroupApp.finding(inCgroupFile: [0x30, 0x3A, 0x3A, 0x2F, 0xFF, 0x0A]) == .unreadable)
    }

    @Test("D13: snap names as snapd allows them")
    func snapNames() {
        for valid in ["firefox", "node-red", "x2go", "node_22", "firefox_beta1", String(repeating: "a", count: 40)] {
            #expect(CgroupApp.isValidSnapName(valid), "\(valid)")
        }
        for invalid in ["", "A", "-x", "x-", "a--b", "123", "x_", "x_Y", "x_12345678901", "x.y", String(repeating: "a", count: 41)] {
            #expect(!CgroupApp.isValidSnapName(invalid), "\(invalid)")
        }
    }
}
