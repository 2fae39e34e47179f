#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame

/// Messages for people go to standard error; standard output carries data only.
enum StandardError {
    static func write(_ text: String) {
        Descriptor.writeAll(text, to: 2)
    }

    /// Writes `message` and ends the process with `status`.
    static func exit(_ status: ExitStatus, _ message: String) -> Never {
        write(message.hasSuffix("\n") ? message : message + "\n")
        systemExit(status.rawValue)
    }
}

private func systemExit(_ status: Int32) -> Never {
    exit(status)
}
