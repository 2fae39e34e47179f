import Foundation

/// libfprint's virtual reader takes one command per connection, without a
/// newline (the bytes are used verbatim, so "SCAN a\n" is the id "a\n"),
/// and its socket exists only while the reader is claimed.
enum VirtualDeviceSocket {
    static func send(_ command: String, to path: String, timeout: Duration) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            switch attempt(command, path: path) {
            case .sent:
                return
            case .notListening(let code) where clock.now < deadline:
                _ = code
                try await Task.sleep(for: .milliseconds(10))
            case .notListening(let code), .failed(let code):
                throw FprintdHarnessError(
                    "could not send '\(command)' to the virtual reader at \(path): \(String(cString: strerror(code)))"
                        + " (is the reader claimed?)")
            }
        }
    }

    private enum Attempt {
        case sent
        case notListening(Int32)
        case failed(Int32)
    }

    private static func attempt(_ command: String, path: String) -> Attempt {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .failed(errno) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return .failed(ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: pathBytes)
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected != 0 {
            let code = errno
            return code == ENOENT || code == ECONNREFUSED ? .notListening(code) : .failed(code)
        }
        var bytes = Array(command.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 { return .failed(errno) }
            offset += written
        }
        shutdown(fd, Int32(SHUT_WR))
        // The reader closes the connection once it has taken the command.
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
        return .sent
    }
}
