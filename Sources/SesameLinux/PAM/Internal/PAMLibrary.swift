#if os(Linux)
import CSesameLinux
import Sesame

/// libpam's entry points, resolved at run time so that a machine without
/// libpam still runs Sesame and reports the device passcode as unavailable.
final class PAMLibrary: @unchecked Sendable {
    // Written once by `sesame_pam_open` and read-only afterwards, hence
    // `@unchecked Sendable`.
    let table: OpaquePointer

    /// The SONAME; the unversioned `libpam.so` only comes with libpam0g-dev.
    static let standardName = "libpam.so.0"

    private static let standard = open(standardName)

    private init(table: OpaquePointer) {
        self.table = table
    }

    /// The loaded library, or why it cannot be used.
    ///
    /// The standard library is opened once per process; other names (tests)
    /// are opened on each call.
    static func load(_ name: String = standardName) -> PAMAvailability {
        name == standardName ? standard : open(name)
    }

    private static func open(_ name: String) -> PAMAvailability {
        var error = [CChar](repeating: 0, count: 512)
        guard let table = sesame_pam_open(name, &error, error.count) else {
            let text = error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .unavailable(UnavailableReason(.libraryMissing, "\(name) could not be loaded: \(text)"))
        }
        return .loaded(PAMLibrary(table: table))
    }

    var supportsConfigDirectory: Bool { sesame_pam_has_confdir(table) != 0 }

    /// PAM's text for a return code. Call before `pam_end`: the text may live
    /// in the handle.
    func describe(_ code: Int32, handle: OpaquePointer?) -> String {
        String(cString: sesame_pam_strerror(table, handle, code))
    }
}

/// Whether libpam could be loaded.
enum PAMAvailability: Sendable {
    case loaded(PAMLibrary)
    case unavailable(UnavailableReason)
}
#endif
