import Benchmark
import Foundation
import Sesame

// Whole-process comparison, side by side in one run on one machine:
//
//   `secret-tool lookup` / `secret-tool store` against gnome-keyring in a
//   private session (its own dbus-daemon with a temporary configuration and
//   address, its own HOME / XDG_DATA_HOME / XDG_RUNTIME_DIR, and
//   `gnome-keyring-daemon --foreground --unlock --components=secrets` given
//   its password on standard input; both stopped by PID afterwards), and
//
//   `sesame get NAME` / `sesame put NAME` (the release binary) against a
//   vault with a device key slot, the item without access control, so no
//   prompt: the work a `get` inside a reuse window does, minus the
//   reuse-window lookup itself.
//
// Also: `sesame --version` (process start alone), and the peak resident
// memory of `sesame get` and `secret-tool lookup` (the largest of 20 runs,
// as GNU time reports it).
//
// Every row spawns one process per iteration through the same Foundation
// `Process` code, so the spawn cost (see the `/bin/true` row) is in every
// figure alike.
//
// Run: Benchmarks/scripts/compare.sh, or
//   SESAME_BINARY=/path/to/release/sesame \
//     swift package --disable-sandbox benchmark --target KeyringComparisonBenchmark
//
// KEYRING_SIZES (default "100,1000") and SESAME_SIZES (default
// "100,1000,10000,100000") choose the store sizes; the keyring is filled by
// one `secret-tool store` per item, whose cost grows with the keyring.

enum Tools {
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static let secretTool = which("secret-tool")
    static let keyringDaemon = which("gnome-keyring-daemon")
    static let dbusDaemon = which("dbus-daemon")

    /// What is missing for the gnome-keyring rows, as apt package names.
    static var missingForKeyring: [String] {
        var missing: [String] = []
        if secretTool == nil { missing.append("secret-tool (apt-get install libsecret-tools)") }
        if keyringDaemon == nil { missing.append("gnome-keyring-daemon (apt-get install gnome-keyring)") }
        if dbusDaemon == nil { missing.append("dbus-daemon (apt-get install dbus-daemon)") }
        return missing
    }

    /// `$SESAME_BINARY`, else `.build/release/sesame` of the root package.
    static let sesame: String = {
        if let path = ProcessInfo.processInfo.environment["SESAME_BINARY"], !path.isEmpty { return path }
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.path + "/.build/release/sesame"
    }()

    static func sizes(_ variable: String, default defaults: [Int]) -> [Int] {
        guard let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty else { return defaults }
        return text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}

struct SpawnError: Error, CustomStringConvertible {
    var description: String
}

/// Runs one program to its end: standard input from `input`, standard
/// output returned, standard error kept for the error message.
@discardableResult
func spawn(_ executable: String, _ arguments: [String], environment: [String: String], input: Data? = nil,
           expectStatus: Int32? = 0) throws -> (status: Int32, output: Data, error: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    let inputPipe = input.map { _ in Pipe() }
    process.standardInput = inputPipe ?? FileHandle.nullDevice
    try process.run()
    if let inputPipe, let input {
        try inputPipe.fileHandleForWriting.write(contentsOf: input)
        try inputPipe.fileHandleForWriting.close()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if let expectStatus, process.terminationStatus != expectStatus {
        throw SpawnError(description: "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
            + String(decoding: errorData, as: UTF8.self))
    }
    return (process.terminationStatus, outputData, errorData)
}

func makeTemporaryDirectory(_ prefix: String) throws -> String {
    var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw SpawnError(description: "mkdtemp failed for \(prefix)") }
    return String(cString: made)
}

func makePrivateDirectory(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
}

/// The value stored in both: 64 printable bytes (secret-tool stores text).
let value = Data(String(repeating: "s3cr3t-v4lue-", count: 5).prefix(64).utf8)

func isolatedEnvironment(root: String, extra: [String: String] = [:]) -> [String: String] {
    var environment = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "HOME": root + "/home",
        "XDG_DATA_HOME": root + "/data",
        "XDG_STATE_HOME": root + "/state",
        "XDG_CONFIG_HOME": root + "/config",
        "XDG_CACHE_HOME": root + "/cache",
        "XDG_RUNTIME_DIR": root + "/run",
        "LANG": "C.UTF-8",
    ]
    environment.merge(extra) { _, new in new }
    return environment
}

// MARK: gnome-keyring

/// A long-running helper started with posix_spawn, with every signal
/// unblocked and at its default action: a `Process` child inherits the
/// spawning thread's blocked mask (SIGTERM included), so it could not be
/// stopped with SIGTERM.
final class Daemon: @unchecked Sendable {
    let pid: pid_t

    init(_ executable: String, _ arguments: [String], environment: [String: String], input: Data? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var fds: [Int32] = [-1, -1]
        if input != nil {
            guard pipe(&fds) == 0 else { throw SpawnError(description: "pipe failed") }
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else: not the benchmark runner's pipes, not the password pipe's writing end.
        // (glibc ignores a close of a descriptor that is not open, such as
        // the one that listed the directory.)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let descriptor = Int32(name), descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        if input != nil { close(fds[0]) }
        guard status == 0 else {
            if input != nil { close(fds[1]) }
            throw SpawnError(description: "posix_spawn \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
        if let input {
            _ = input.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            close(fds[1])
        }
    }

    var isRunning: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// SIGTERM by PID; SIGKILL if it is still there after five seconds.
    func stop() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        for _ in 0..<250 {
            if !isRunning { return }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

/// The peak resident memory of one run of a program, in kilobytes, as GNU
/// time reports it (`%M`). Not `wait4` from here: a child spawned with
/// `posix_spawn` shares this process's memory until `exec`, and Linux counts
/// that high-water mark (the benchmark's own tens of MB) in the child's
/// `ru_maxrss`; `time` forks from a process of about 2 MB.
func peakResidentKilobytes(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> Int {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
        throw SpawnError(description: "the peak-memory rows need GNU time: apt-get install time")
    }
    let report = NSTemporaryDirectory() + "/peak-rss-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: report) }
    try spawn("/usr/bin/time", ["-f", "%M", "-o", report, executable] + arguments, environment: environment)
    let text = try String(contentsOfFile: report, encoding: .utf8)
    guard let kilobytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw SpawnError(description: "GNU time reported \(text)")
    }
    return kilobytes
}

/// A private D-Bus session with gnome-keyring's secrets component in it.
final class KeyringSession: @unchecked Sendable {
    static let password = Data("benchmark-keyring-password".utf8)

    let root: String
    let environment: [String: String]
    private let bus: Daemon
    private var daemon: Daemon?

    /// - Parameter keyrings: A `keyrings` directory to start from (a copy is used), or nil for an empty one.
    init(keyrings template: String?) throws {
        root = try makeTemporaryDirectory("sesame-keyring")
        for directory in ["home", "data", "state", "config", "cache", "run"] {
            try makePrivateDirectory(root + "/" + directory)
        }
        if let template {
            try spawn("/bin/cp", ["-a", template, root + "/data/keyrings"], environment: ["PATH": "/usr/bin:/bin"])
        }
        let socket = root + "/run/bus"
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try configuration.write(toFile: root + "/bus.conf", atomically: true, encoding: .utf8)
        environment = isolatedEnvironment(root: root, extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket)"])

        // No <servicedir>: nothing is activated behind our back; the only
        // secrets service on this bus is the daemon started below.
        bus = try Daemon(Tools.dbusDaemon!, ["--config-file=\(root)/bus.conf", "--nofork", "--nopidfile"], environment: environment)
        do {
            try Self.wait("the private dbus-daemon") { FileManager.default.fileExists(atPath: socket) }
            daemon = try Daemon(Tools.keyringDaemon!, ["--foreground", "--unlock", "--components=secrets"],
                                environment: environment, input: Self.password)
            // Until the daemon owns org.freedesktop.secrets, secret-tool
            // complains on standard error; a plain "not found" is silent.
            let environment = environment
            try Self.wait("gnome-keyring-daemon to own org.freedesktop.secrets") {
                let probe = try? spawn(Tools.secretTool!, ["lookup", "sesame-benchmark-probe", "1"],
                                       environment: environment, expectStatus: nil)
                return probe.map { $0.error.isEmpty } ?? false
            }
        } catch {
            stop()
            throw error
        }
    }

    private static func wait(_ what: String, until ready: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try ready() { return }
            usleep(20_000)
        }
        throw SpawnError(description: "timed out waiting for \(what)")
    }

    /// Stops the daemon, then the bus, by their process IDs.
    func stop() {
        daemon?.stop()
        bus.stop()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    func store(account: String) throws {
        try spawn(Tools.secretTool!, ["store", "--label=\(account)", "benchmark", "sesame", "account", account],
                  environment: environment, input: value)
    }

    func lookup(account: String) throws -> Data {
        try spawn(Tools.secretTool!, ["lookup", "benchmark", "sesame", "account", account], environment: environment).output
    }
}

// MARK: Templates, made once per size and copied for each benchmark

final class Templates: @unchecked Sendable {
    static let shared = Templates()
    private let lock = NSLock()
    private var keyrings: [Int: String] = [:]
    private var vaults: [Int: String] = [:]
    private var sessions: [String: KeyringSession] = [:]
    private var directories: [String: String] = [:]

    /// A `keyrings` directory holding `items` secrets, filled by one
    /// `secret-tool store` per item.
    ///
    /// Every benchmark runs in its own process, so the filled directory is
    /// kept in `$TMPDIR/sesame-benchmark-keyring-<items>` (renamed there only
    /// once complete) and the rows of one run share it; compare.sh gives
    /// each run its own TMPDIR and removes it afterwards.
    func keyring(items: Int) throws -> String {
        if let path = lock.withLock({ keyrings[items] }) { return path }
        let kept = NSTemporaryDirectory() + "/sesame-benchmark-keyring-\(items)"
        if FileManager.default.fileExists(atPath: kept) {
            lock.withLock { keyrings[items] = kept }
            return kept
        }
        let session = try KeyringSession(keyrings: nil)
        let started = Date()
        do {
            for index in 0..<items {
                try session.store(account: "item-\(index)")
            }
        } catch {
            session.stop()
            session.remove()
            throw error
        }
        session.stop()
        print("KeyringComparisonBenchmark: filled gnome-keyring with \(items) items by secret-tool store in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        if rename(session.root + "/data/keyrings", kept) != 0, !FileManager.default.fileExists(atPath: kept) {
            throw SpawnError(description: "cannot keep the filled keyring at \(kept)")
        }
        session.remove()
        lock.withLock { keyrings[items] = kept }
        return kept
    }

    /// A directory with `vault.sqlite` (made by `sesame init`, device slot
    /// plus a passcode slot at scrypt N=2^10) and its `device/` key,
    /// holding `items` items without access control in service "sesame".
    func vault(items: Int) async throws -> String {
        if let path = lock.withLock({ vaults[items] }) { return path }
        let root = try makeTemporaryDirectory("sesame-vault-template-\(items)")
        let directory = root + "/vault"
        try spawn(Tools.sesame, ["init", "--vault", directory + "/vault.sqlite", "--scrypt-log2n", "10", "--passcode-fd", "0", "--no-interaction"],
                  environment: isolatedEnvironment(root: root), input: Data("benchmark-passcode".utf8))
        let started = Date()
        let vault = try await Vault.open(at: directory + "/vault.sqlite", unlock: .device(), authenticators: Authenticators(appName: "benchmark"))
        let secret = SecretBytes(value)
        for index in 0..<items {
            try await vault.items.add(secret, service: "sesame", account: "item-\(index)")
        }
        print("KeyringComparisonBenchmark: filled a sesame vault with \(items) items through the library in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        lock.withLock { vaults[items] = directory }
        return directory
    }

    /// Starts a keyring session from a copy of the template for `benchmark`.
    func startKeyring(items: Int, for benchmark: String) throws {
        let session = try KeyringSession(keyrings: try keyring(items: items))
        lock.withLock { sessions[benchmark] = session }
    }

    func keyringSession(for benchmark: String) -> KeyringSession {
        lock.withLock { sessions[benchmark]! }
    }

    func stopKeyring(for benchmark: String) {
        let session = lock.withLock { sessions.removeValue(forKey: benchmark) }
        session?.stop()
        session?.remove()
    }

    /// A private copy of the vault template for `benchmark`; returns its environment.
    func copyVault(items: Int, for benchmark: String) async throws {
        let template = try await vault(items: items)
        let root = try makeTemporaryDirectory("sesame-vault")
        for directory in ["home", "data", "state", "config", "cache", "run"] {
            try makePrivateDirectory(root + "/" + directory)
        }
        try spawn("/bin/cp", ["-a", template, root + "/vault"], environment: ["PATH": "/usr/bin:/bin"])
        lock.withLock { directories[benchmark] = root }
    }

    func vaultEnvironment(for benchmark: String) -> [String: String] {
        let root = lock.withLock { directories[benchmark]! }
        return isolatedEnvironment(root: root, extra: ["SESAME_VAULT": root + "/vault/vault.sqlite"])
    }

    func removeVault(for benchmark: String) {
        if let root = lock.withLock({ directories.removeValue(forKey: benchmark) }) {
            try? FileManager.default.removeItem(atPath: root)
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock],
        timeUnits: .milliseconds,
        warmupIterations: 3,
        maxDuration: .seconds(5),
        maxIterations: 200
    )

    Benchmark("spawn /bin/true (the process floor of every row)") { benchmark throws in
        for _ in benchmark.scaledIterations {
            try spawn("/bin/true", [], environment: ["PATH": "/usr/bin:/bin"])
        }
    }

    let keyringSizes = Tools.sizes("KEYRING_SIZES", default: [100, 1_000])
    let missing = Tools.missingForKeyring
    if !missing.isEmpty {
        print("KeyringComparisonBenchmark: gnome-keyring rows SKIPPED, missing: \(missing.joined(separator: ", "))")
    } else {
        for items in keyringSizes {
            let lookup = "secret-tool lookup, whole process (\(items) items)"
            Benchmark(lookup, closure: { benchmark throws in
                let session = Templates.shared.keyringSession(for: lookup)
                for _ in benchmark.scaledIterations {
                    let output = try session.lookup(account: "item-\(Int.random(in: 0..<items))")
                    guard output.prefix(value.count) == value else { throw SpawnError(description: "secret-tool lookup returned the wrong value") }
                }
            }, setup: {
                try Templates.shared.startKeyring(items: items, for: lookup)
            }, teardown: {
                Templates.shared.stopKeyring(for: lookup)
            })

            let lookupMemory = "secret-tool lookup, peak resident memory (\(items) items)"
            Benchmark(lookupMemory, configuration: .init(metrics: [.custom("peak RSS (KB)")], maxIterations: 1), closure: { benchmark throws in
                let session = Templates.shared.keyringSession(for: lookupMemory)
                var peak = 0
                for _ in 0..<20 {
                    peak = max(peak, try peakResidentKilobytes(
                        Tools.secretTool!, ["lookup", "benchmark", "sesame", "account", "item-\(Int.random(in: 0..<items))"],
                        environment: session.environment))
                }
                benchmark.measurement(.custom("peak RSS (KB)"), peak)
            }, setup: {
                try Templates.shared.startKeyring(items: items, for: lookupMemory)
            }, teardown: {
                Templates.shared.stopKeyring(for: lookupMemory)
            })

            let store = "secret-tool store, whole process (\(items) items)"
            Benchmark(store, closure: { benchmark throws in
                let session = Templates.shared.keyringSession(for: store)
                for _ in benchmark.scaledIterations {
                    try session.store(account: UUID().uuidString)
                }
            }, setup: {
                try Templates.shared.startKeyring(items: items, for: store)
            }, teardown: {
                Templates.shared.stopKeyring(for: store)
            })
        }
    }

    guard FileManager.default.isExecutableFile(atPath: Tools.sesame) else {
        print("""
            KeyringComparisonBenchmark: sesame rows SKIPPED: no sesame binary at \(Tools.sesame).
            Build it with `swift build -c release --product sesame` in the root package, \
            or point SESAME_BINARY at one (Benchmarks/scripts/compare.sh does both).
            """)
        return
    }
    Benchmark("sesame --version, whole process") { benchmark throws in
        for _ in benchmark.scaledIterations {
            try spawn(Tools.sesame, ["--version"], environment: ["PATH": "/usr/bin:/bin"])
        }
    }
    ReuseWindowRow.register()
    for items in Tools.sizes("SESAME_SIZES", default: [100, 1_000, 10_000, 100_000]) {
        let get = "sesame get, whole process, no access control (\(items) items)"
        Benchmark(get, closure: { benchmark throws in
            let environment = Templates.shared.vaultEnvironment(for: get)
            for _ in benchmark.scaledIterations {
                let output = try spawn(Tools.sesame, ["get", "item-\(Int.random(in: 0..<items))", "--no-interaction"],
                                       environment: environment).output
                guard output == value else { throw SpawnError(description: "sesame get returned the wrong value") }
            }
        }, setup: {
            try await Templates.shared.copyVault(items: items, for: get)
        }, teardown: {
            Templates.shared.removeVault(for: get)
        })

        let getMemory = "sesame get, peak resident memory (\(items) items)"
        Benchmark(getMemory, configuration: .init(metrics: [.custom("peak RSS (KB)")], maxIterations: 1), closure: { benchmark throws in
            let environment = Templates.shared.vaultEnvironment(for: getMemory)
            var peak = 0
            for _ in 0..<20 {
                peak = max(peak, try peakResidentKilobytes(Tools.sesame, ["get", "item-\(Int.random(in: 0..<items))", "--no-interaction"],
                                                           environment: environment))
            }
            benchmark.measurement(.custom("peak RSS (KB)"), peak)
        }, setup: {
            try await Templates.shared.copyVault(items: items, for: getMemory)
        }, teardown: {
            Templates.shared.removeVault(for: getMemory)
        })

        let put = "sesame put, whole process, no access control (\(items) items)"
        Benchmark(put, closure: { benchmark throws in
            let environment = Templates.shared.vaultEnvironment(for: put)
            for _ in benchmark.scaledIterations {
                try spawn(Tools.sesame, ["put", UUID().uuidString, "--no-interaction"], environment: environment, input: value)
            }
        }, setup: {
            try await Templates.shared.copyVault(items: items, for: put)
        }, teardown: {
            Templates.shared.removeVault(for: put)
        })
    }
}
