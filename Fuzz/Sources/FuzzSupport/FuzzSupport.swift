// What every fuzz target needs: a way from libFuzzer's synchronous callback
// into Sesame's async API, and a fresh vault to drive.
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Sesame

/// Runs an async body to completion from libFuzzer's synchronous callback.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    nonisolated(unsafe) var result: T?
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        result = await body()
        done.signal()
    }
    done.wait()
    return result!
}

/// A new vault with a device slot in a private temporary directory
/// (`/tmp/<prefix>-XXXXXX/vault/vault.sqlite`).
public func temporaryVault(prefix: String) async -> Vault {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    return try! await Vault.create(at: directory + "/vault/vault.sqlite", slots: [.device()],
                                   authenticators: Authenticators(appName: "fuzz")).vault
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Hands control to libFuzzer's driver. SwiftPM links debug executables with
/// `--defsym main=<Target>_main` (so tests can import them), which hides
/// libFuzzer's own `main`; each target's `<Target>_main` calls this instead.
public func runFuzzerDriver(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt {
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector, callback)
}
