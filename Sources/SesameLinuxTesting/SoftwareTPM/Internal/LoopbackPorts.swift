#if os(Linux)
import Foundation
import Glibc

/// TCP ports on 127.0.0.1, for daemons that cannot be handed a listening socket.
enum LoopbackPorts {
    /// A port `p` such that `p` and `p + 1` were both free a moment ago.
    static func freePair() throws -> UInt16 {
        for _ in 0..<50 {
            guard let first = bindLoopback(0) else { continue }
            defer { close(first.descriptor) }
            guard first.port < UInt16.max, let second = bindLoopback(first.port + 1) else { continue }
            close(second.descriptor)
            return first.port
        }
        throw SoftwareTPMError("no two adjacent free ports on 127.0.0.1")
    }

    /// Whether the socket listening on `port` belongs to process `pid`:
    /// a port found free can be taken by another test's daemon before ours
    /// binds it, and then that daemon would answer in its place.
    static func isListening(_ port: UInt16, ownedBy pid: pid_t) -> Bool {
        let inodes = listeningInodes(port)
        guard !inodes.isEmpty, let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return false }
        let owned = Set(descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") })
        return inodes.contains { owned.contains("socket:[\($0)]") }
    }

    /// Whether any process listens on `port` (IPv4).
    static func isListening(_ port: UInt16) -> Bool {
        !listeningInodes(port).isEmpty
    }

    private static func listeningInodes(_ port: UInt16) -> [String] {
        guard let data = FileManager.default.contents(atPath: "/proc/net/tcp") else { return [] }
        let table = String(decoding: data, as: UTF8.self)
        let hexPort = String(port, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - hexPort.count)) + hexPort
        // Columns: sl local_address rem_address st … inode; 0A is LISTEN.
        return table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let columns = line.split(separator: " ")
            guard columns.count > 9, columns[1].hasSuffix(":" + padded), columns[3] == "0A" else { return nil }
            return String(columns[9])
        }
    }

    /// Sends `request` to `port` and reads the reply, blocking for up to
    /// `timeout` on each read or write.
    ///
    /// - Parameter replyLength: The reply's full length, given what has
    ///   arrived so far (a header may say it).
    /// - Throws: ``SoftwareTPMError`` saying which step failed and why.
    static func exchange(_ port: UInt16, _ request: [UInt8], replyLength: ([UInt8]) -> Int, timeout: Duration) throws(SoftwareTPMError) -> [UInt8] {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SoftwareTPMError("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let seconds = timeout.components.seconds
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            _ = setsockopt(descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = loopback(port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw SoftwareTPMError("connect to port \(port): \(String(cString: strerror(errno)))") }
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { throw SoftwareTPMError("send to port \(port): \(String(cString: strerror(errno)))") }
        var reply: [UInt8] = []
        while reply.count < replyLength(reply) {
            guard replyLength(reply) <= 4096 else { throw SoftwareTPMError("port \(port) announced a \(replyLength(reply))-byte reply") }
            var buffer = [UInt8](repeating: 0, count: replyLength(reply) - reply.count)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw SoftwareTPMError("no reply from port \(port) within \(timeout): \(String(cString: strerror(errno)))") }
            if count == 0 { throw SoftwareTPMError("port \(port) closed the connection after \(reply.count) bytes of its reply") }
            reply += buffer[0..<count]
        }
        return reply
    }

    private static func bindLoopback(_ port: UInt16) -> (descriptor: Int32, port: UInt16)? {
        // Close-on-exec: a child another test spawns meanwhile must not keep
        // the port bound after it is handed to swtpm.
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = loopback(port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard bound == 0, withUnsafeMutablePointer(to: &address, {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }) == 0 else {
            close(descriptor)
            return nil
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
#endif
