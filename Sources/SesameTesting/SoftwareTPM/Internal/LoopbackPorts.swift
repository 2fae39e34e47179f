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

    /// Whether something accepts connections on `port`.
    static func answers(_ port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Whether the socket listening on `port` belongs to process `pid`:
    /// a port found free can be taken by another test's daemon before ours
    /// binds it, and then `answers` is true for the wrong daemon.
    static func isListening(_ port: UInt16, ownedBy pid: pid_t) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/net/tcp") else { return false }
        let table = String(decoding: data, as: UTF8.self)
        let hexPort = String(port, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - hexPort.count)) + hexPort
        // Columns: sl local_address rem_address st … inode; 0A is LISTEN.
        let inodes = table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let columns = line.split(separator: " ")
            guard columns.count > 9, columns[1].hasSuffix(":" + padded), columns[3] == "0A" else { return nil }
            return String(columns[9])
        }
        guard !inodes.isEmpty, let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return false }
        let owned = Set(descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") })
        return inodes.contains { owned.contains("socket:[\($0)]") }
    }

    private static func bindLoopback(_ port: UInt16) -> (descriptor: Int32, port: UInt16)? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
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
