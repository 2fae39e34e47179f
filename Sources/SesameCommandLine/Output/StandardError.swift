#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Messages for people go to standard error; standard output carries data only.
enum StandardError {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(2, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { break }
            offset += written
        }
        bytes.removeAll()
    }

    /// Writes `message` and ends the process with `status`.
    static func exit(_ status: ExitStatus, _ message: String) -> Never {
        write(message.hasSuffix("\n") ? message : message + "\n")
        systemExit(status.rawValue)
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

private func systemExit(_ status: Int32) -> Never {
    exit(status)
}
