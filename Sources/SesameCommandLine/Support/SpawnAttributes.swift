#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// posix_spawn attributes for a child that must start as from a shell:
/// `sesame` ignores or handles some signals (Ctrl-C around prompts, SIGPIPE
/// around pipes) and may block others on the thread that spawns, and both
/// would otherwise be inherited.
enum SpawnAttributes {
    /// Runs `body` with attributes that reset SIGINT, SIGQUIT, SIGPIPE,
    /// SIGTERM, SIGHUP and SIGCHLD to their defaults and block nothing.
    ///
    /// - Parameters:
    ///   - detached: Start the child in a session of its own (setsid).
    ///   - body: Calls posix_spawn with the attributes.
    static func withShellDefaults<Result>(detached: Bool = false, _ body: (inout posix_spawnattr_t) -> Result) -> Result {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), none = sigset_t()
        sigemptyset(&defaults)
        sigemptyset(&none)
        for number in [SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if detached { flags |= setSessionFlag }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        return body(&attributes)
    }

    /// glibc's `POSIX_SPAWN_SETSID` (2.26 and later), hidden from Swift behind
    /// `_GNU_SOURCE`: the child calls setsid() before exec.
    private static let setSessionFlag: Int32 = 0x80
}
