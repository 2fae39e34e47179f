#if os(Linux)
import CSesameLinux
import Foundation
import Glibc
import Sesame

/// One client of ``SSHAgentServer``, on its own thread: read a frame, answer
/// it, until the client hangs up or sends something that cannot be framed.
struct AgentConnectionLoop {
    let descriptor: Int32
    let agent: SSHAgent

    func run() {
        let connection = SSHAgentConnection()
        defer {
            connection.close()
            close(descriptor)
        }
        while true {
            guard let header = read(exactly: 4), let length = try? SSHAgentFrame.bodyLength(header: header),
                  let body = read(exactly: length) else { return }
            let response: SSHAgentResponse
            if let request = try? SSHAgentRequest.parse(body) {
                response = answer(request, on: connection)
            } else {
                response = .failure
            }
            guard write(response.frame) else { return }
        }
    }

    /// Waits for the agent's answer on this thread, watching the socket: a
    /// client that hangs up meanwhile closes the connection, which cancels
    /// its prompt.
    private func answer(_ request: SSHAgentRequest, on connection: SSHAgentConnection) -> SSHAgentResponse {
        let result = Locked<SSHAgentResponse?>(nil)
        let done = DispatchSemaphore(value: 0)
        let agent = self.agent
        Task {
            let response = await agent.respond(to: request, on: connection)
            result.withLock { $0 = response }
            done.signal()
        }
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if sesame_socket_peer_closed(descriptor) == 1 { connection.close() }
        }
        return result.withLock { $0 } ?? .failure
    }

    private func read(exactly count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + offset, count - offset) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            offset += got
        }
        return bytes
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
#endif
