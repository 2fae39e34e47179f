#if canImport(Glibc)
import Glibc
#endif
#if os(Linux)
import SesameLinux
#endif

/// Whether this user can create the virtual FIDO device `sesame passkey
/// serve` shows browsers, and if not, what stops it and the fix: one answer
/// for `setup passkey` and `doctor`.
enum PasskeyDeviceAccess {
    /// `nil` when `/dev/uhid` is this user's to open; else what is wrong
    /// and the command that fixes it.
    static func problem() -> (detail: String, fix: String)? {
        #if os(Linux)
        let device = UHIDDevice.defaultPath
        if access(device, W_OK) == 0 { return nil }
        guard access(device, F_OK) == 0 else { return ("\(device) does not exist (the uhid module is not loaded)", "sudo modprobe uhid") }
        return ("\(device) is not writable by you",
                "install the Debian package (its udev rule gives the seat's user /dev/uhid), or copy contrib/udev/70-sesame-uhid.rules to /etc/udev/rules.d/ and run sudo udevadm trigger")
        #else
        return ("passkeys are served on Linux only", "none: on Apple platforms passkeys belong to the system")
        #endif
    }
}
