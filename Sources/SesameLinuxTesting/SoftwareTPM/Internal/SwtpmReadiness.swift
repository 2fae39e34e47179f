#if os(Linux)
import Dispatch
import Foundation

/// Decides when a freshly launched swtpm is ready, by asking it rather than
/// by waiting a fixed time: both of its ports must be listening sockets of
/// its own process (not of another test's daemon that took a port first),
/// and each must answer a command.
enum SwtpmReadiness {
    enum Outcome: Sendable {
        case ready
        /// Why not; `portTaken` when another process holds one of its ports.
        case failed(String, portTaken: Bool)
    }

    /// The control channel's CMD_GET_CAPABILITY; the answer is a 4-byte
    /// result (0) and the 4-byte capability mask.
    static let getCapability: [UInt8] = [0, 0, 0, 1]
    /// TPM2_GetRandom of 8 bytes (TPM_ST_NO_SESSIONS, size 12, TPM_CC 0x17B).
    static let getRandom: [UInt8] = [0x80, 0x01, 0, 0, 0, 0x0C, 0, 0, 0x01, 0x7B, 0, 8]

    /// Waits until `child` answers on `port` (commands) and `port + 1`
    /// (control), it ends, or `bound` passes.
    static func wait(for child: ChildProcess, port: UInt16, bound: Duration) async -> Outcome {
        let clock = ContinuousClock()
        let deadline = clock.now + bound
        var last = "nothing was probed"
        while clock.now < deadline {
            if let status = await child.exitStatus {
                return .failed("swtpm exited with status \(status) (last probe: \(last))", portTaken: false)
            }
            let ports = [port, port + 1]
            if let taken = ports.first(where: { LoopbackPorts.isListening($0) && !LoopbackPorts.isListening($0, ownedBy: child.pid) }) {
                return .failed("port \(taken) is held by another process", portTaken: true)
            }
            if ports.allSatisfy({ LoopbackPorts.isListening($0, ownedBy: child.pid) }) {
                let remaining = max(deadline - clock.now, .milliseconds(100))
                switch await answers(port: port, within: remaining) {
                case .success: return .ready
                case .failure(let failure): last = failure.description
                }
            } else {
                last = "swtpm's process listens on neither or only one of the ports"
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return .failed("swtpm did not answer within \(bound) (last probe: \(last))", portTaken: false)
    }

    /// Whether both channels answer, asked off the cooperative pool: a slow
    /// swtpm keeps a blocking read waiting up to `within`.
    private static func answers(port: UInt16, within: Duration) async -> Result<Void, SoftwareTPMError> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result {
                    let control = try LoopbackPorts.exchange(port + 1, getCapability, replyLength: { _ in 8 }, timeout: within)
                    guard control.prefix(4) == [0, 0, 0, 0] else {
                        throw SoftwareTPMError("control port \(port + 1) answered CMD_GET_CAPABILITY with \(control)")
                    }
                    // The reply's size is its header's bytes 2..<6.
                    let reply = try LoopbackPorts.exchange(port, getRandom, replyLength: { header in
                        header.count < 6 ? 6 : header[2..<6].reduce(0) { $0 << 8 | Int($1) }
                    }, timeout: within)
                    guard reply.count >= 10, reply[6..<10] == [0, 0, 0, 0] else {
                        throw SoftwareTPMError("command port \(port) answered TPM2_GetRandom with \(reply)")
                    }
                }.mapError { $0 as? SoftwareTPMError ?? SoftwareTPMError("\($0)") })
            }
        }
    }
}
#endif
