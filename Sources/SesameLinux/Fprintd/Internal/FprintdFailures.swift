import Sesame

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Gives D-Bus failures a meaning a user can act on (SPEC A2).
enum FprintdFailures {
    static func reason(_ failure: DBusError) -> UnavailableReason {
        switch failure.localFailure {
        case .libraryMissing(let detail)?:
            return UnavailableReason(.libraryMissing, "libsystemd.so.0 could not be loaded: \(detail)")
        case .unreachable(let address, let code)?:
            return UnavailableReason(.noSystemBus, "cannot connect to the system bus at \(address): \(describe(errno: code))")
        case .transport(let code)?:
            return UnavailableReason(.noSystemBus, "the system bus connection failed: \(describe(errno: code))")
        case .noThread?:
            return UnavailableReason(.hardwareError, "could not start a thread for the system bus")
        case nil:
            return reason(remote: failure.name, message: failure.message)
        }
    }

    private static func reason(remote name: String, message: String) -> UnavailableReason {
        switch name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return UnavailableReason(.serviceNotRunning, "fprintd is not running")
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
             "org.freedesktop.DBus.Error.TimedOut":
            return UnavailableReason(.serviceNotRunning, "fprintd did not answer: \(message)")
        case "org.freedesktop.DBus.Error.AccessDenied":
            return UnavailableReason(.permissionDenied, "the system bus refused access to fprintd: \(message)")
        case "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod":
            // The device object goes away when the reader is unplugged.
            return UnavailableReason(.disconnected, "the fingerprint reader was disconnected")
        case "net.reactivated.Fprint.Error.NoSuchDevice":
            return UnavailableReason(.noSensor, "no fingerprint reader is attached")
        case "net.reactivated.Fprint.Error.PermissionDenied":
            return UnavailableReason(.permissionDenied, "permission denied by polkit: \(message)")
        case "net.reactivated.Fprint.Error.AlreadyInUse":
            return UnavailableReason(.deviceBusy, "the fingerprint reader is in use by another program")
        default:
            return UnavailableReason(.hardwareError, "fprintd reported \(name): \(message)")
        }
    }

    /// A failure during a claim, as the core expects it.
    static func sensorError(_ failure: DBusError) -> BiometricSensorError {
        if isNoEnrolledPrints(failure) { return .notEnrolled }
        return .unavailable(reason(failure))
    }

    /// fprintd's answer when the user has no finger enrolled.
    static func isNoEnrolledPrints(_ failure: DBusError) -> Bool {
        failure.localFailure == nil && failure.name == "net.reactivated.Fprint.Error.NoEnrolledPrints"
    }

    static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
