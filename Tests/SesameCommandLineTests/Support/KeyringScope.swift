import Foundation
#if os(Linux)
import SesameLinux
#endif

/// The reuse window and the session marks live in the user's kernel
/// keyring, shared by every process of the user: a test's commands name
/// their keys by their home (`SESAME_REUSE_SCOPE`), so tests side by side,
/// and the user's own session, stay apart.
enum KeyringScope {
    /// The scope of the commands run with `home` as HOME.
    static func of(home: String) -> String {
        "home-" + URL(fileURLWithPath: home).lastPathComponent
    }

    /// Removes `home` and the session marks its commands left (they last
    /// until reboot; the reuse window ends by itself).
    static func remove(home: String) {
        #if os(Linux)
        LogindSessionLock(.init(markScope: of(home: home))).forgetMarks()
        #endif
        try? FileManager.default.removeItem(atPath: home)
    }
}
