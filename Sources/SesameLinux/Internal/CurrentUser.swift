#if os(Linux)
import Glibc

/// The account the process runs as, from the password database (not from
/// `$USER`, which the environment can fake).
enum CurrentUser {
    static func name() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return nil
        }
        return String(cString: name)
    }
}
#endif
