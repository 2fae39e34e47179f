import Foundation
import Glibc

/// A raw client of the agent's socket for the flood tests, and
/// what `/proc` tells about the agent process.
struct AgentClientSocket {
    let descriptor: Int32

    /// Connects; `nil` when the agent's backlog is full (`EAGAIN`) or the
    /// connection is refused.
    static func connect(_ path: String, blocking: Bool = true) -> AgentClientSocket? {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | (blocking ? 0 : Int32(SOCK_NONBLOCK.rawValue)), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            _ = Glibc.close(descriptor)
            return nil
        }
        return AgentClientSocket(descriptor: descriptor)
    }

    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// What arrives within `seconds`: bytes, `[]` when the agent closed, `nil` when nothing came.
    func receive(within seconds: Int) -> [UInt8]? {
        var watch = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&watch, 1, Int32(seconds * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 4096, Int32(MSG_DONTWAIT)) }
        return got > 0 ? Array(buffer.prefix(got)) : []
    }

    /// The agent closed this connection (end of stream or reset), without waiting.
    var isClosedByAgent: Bool {
        var byte: UInt8 = 0
        let got = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
        return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    func close() { _ = Glibc.close(descriptor) }
}

/// The agent process as the kernel accounts for it.
enum ProcessAccount {
    /// User plus system CPU time so far, in seconds (`/proc/PID/stat` fields 14 and 15).
    static func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces.
        let fields = stat[stat.index(after: try tail(of: stat))...].split(separator: " ")
        // fields[0] is field 3 (state): utime is field 14, stime field 15.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw EnvironmentError("cannot read /proc/\(pid)/stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident memory in bytes (`VmRSS` of `/proc/PID/status`).
    static func residentBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw EnvironmentError("no VmRSS in /proc/\(pid)/status")
        }
        return kilobytes * 1024
    }

    /// Open descriptors.
    static func descriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    private static func tail(of stat: String) throws -> String.Index {
        guard let end = stat.lastIndex(of: ")") else { throw EnvironmentError("cannot read a stat line") }
        return stat.index(after: end)
    }
}
