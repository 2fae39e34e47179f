#if os(Linux)
import Foundation
import Glibc
import Sesame
import SesameLinux

/// A task executor with one thread on which the kernel keyring is blocked:
/// a seccomp filter on that thread alone answers `add_key`, `request_key`
/// and `keyctl` with EPERM, as a container's default profile does. What
/// ``run(_:)`` runs meets a blocked keyring there, while every other test
/// in the process keeps a working one.
final class KeyctlBlockedExecutor: TaskExecutor, @unchecked Sendable {
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    private var installed: Result<Void, SetupError>?

    /// Starts the thread and waits until its filter is in place.
    ///
    /// - Throws: ``SetupError`` when the kernel refuses the filter.
    init() throws {
        let thread = Thread { [self] in run() }
        thread.name = "keyctl-blocked"
        thread.start()
        condition.lock()
        var result = installed
        while result == nil {
            condition.wait()
            result = installed
        }
        condition.unlock()
        try result?.get()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on the blocked thread (its nonisolated async code; a task
    /// it starts without structure runs elsewhere).
    func run<Value: Sendable>(_ body: @Sendable () async throws -> Value) async rethrows -> Value {
        try await withTaskExecutorPreference(self) { try await body() }
    }

    /// Ends the thread (and its filter) once the queued jobs have run.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        let result = Self.blockKeyctlOnThisThread()
        condition.lock()
        installed = result
        condition.broadcast()
        condition.unlock()
        guard case .success = result else { return }
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Installs the filter on the calling thread only (no TSYNC), after
    /// `no_new_privs`, which the kernel requires of an unprivileged filter
    /// and which is also per thread.
    private static func blockKeyctlOnThisThread() -> Result<Void, SetupError> {
        #if arch(x86_64)
        let (architecture, addKey, requestKey, keyctl): (UInt32, UInt32, UInt32, UInt32) = (0xC000_003E, 248, 249, 250)
        #elseif arch(arm64)
        let (architecture, addKey, requestKey, keyctl): (UInt32, UInt32, UInt32, UInt32) = (0xC000_00B7, 217, 218, 219)
        #else
        return .failure(SetupError(description: "no keyctl system call numbers for this architecture"))
        #endif
        let load: UInt16 = 0x20, jumpIfEqual: UInt16 = 0x15, ret: UInt16 = 0x06
        let allow: UInt32 = 0x7FFF_0000, failWithEPERM: UInt32 = 0x0005_0000 | UInt32(EPERM)
        // struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }, packed by hand:
        // Swift promises no C layout for its own structs.
        func instruction(_ code: UInt16, _ jumpTrue: UInt8, _ jumpFalse: UInt8, _ k: UInt32) -> UInt64 {
            UInt64(code) | UInt64(jumpTrue) << 16 | UInt64(jumpFalse) << 24 | UInt64(k) << 32
        }
        // seccomp_data: nr at offset 0, arch at offset 4.
        var program: [UInt64] = [
            instruction(load, 0, 0, 4),
            instruction(jumpIfEqual, 0, 5, architecture),
            instruction(load, 0, 0, 0),
            instruction(jumpIfEqual, 2, 0, addKey),
            instruction(jumpIfEqual, 1, 0, keyctl),
            instruction(jumpIfEqual, 0, 1, requestKey),
            instruction(ret, 0, 0, failWithEPERM),
            instruction(ret, 0, 0, allow),
        ]
        #if !_endian(little)
        return .failure(SetupError(description: "the filter is packed for a little-endian machine"))
        #endif
        // Swift does not import variadic C functions; prctl reads its
        // integer arguments from the same registers as a fixed-arity call.
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "prctl") else {
            return .failure(SetupError(description: "prctl not found"))
        }
        let prctl = unsafeBitCast(symbol, to: Prctl.self)
        let PR_SET_NO_NEW_PRIVS: Int32 = 38, PR_SET_SECCOMP: Int32 = 22, SECCOMP_MODE_FILTER: UInt = 2
        guard prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 else {
            return .failure(SetupError(description: "PR_SET_NO_NEW_PRIVS: \(String(cString: strerror(errno)))"))
        }
        let status = program.withUnsafeMutableBufferPointer { instructions in
            // struct sock_fprog { unsigned short len; struct sock_filter *filter; }: len, padding, pointer.
            var header: [UInt64] = [UInt64(instructions.count), UInt64(UInt(bitPattern: instructions.baseAddress))]
            return header.withUnsafeMutableBufferPointer {
                prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, UInt(bitPattern: $0.baseAddress), 0, 0)
            }
        }
        guard status == 0 else {
            return .failure(SetupError(description: "PR_SET_SECCOMP: \(String(cString: strerror(errno)))"))
        }
        return .success(())
    }
}

/// A keyring reuse window as a process where keyctl is blocked has it: each
/// call of the real store runs on the blocked thread. (An evaluation runs in
/// a task of its own, which no executor preference reaches, so the store's
/// calls are what must be moved: they are its only keyring system calls.)
struct KeyctlBlockedReuseWindow: ReuseWindowStore {
    let cache: KernelKeyringReuseWindowStore
    let thread: KeyctlBlockedExecutor

    func recordSuccess(domainState: DomainState?) async throws {
        try await thread.run { try await cache.recordSuccess(domainState: domainState) }
    }

    func lastSuccess() async throws -> ReuseWindowEntry? {
        try await thread.run { try await cache.lastSuccess() }
    }

    func clear() async throws {
        try await thread.run { try await cache.clear() }
    }
}
#endif
