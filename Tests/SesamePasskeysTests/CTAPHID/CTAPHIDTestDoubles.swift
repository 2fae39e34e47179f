import Sesame
@testable import SesamePasskeys

/// A `CTAPHIDTiming.sleep` that returns only when the test fires it, so
/// keepalives and timeouts are driven without waiting (no timed tests).
final class ManualSleeper: Sendable {
    private struct State {
        var next = 0
        var sleeping: [Int: (duration: Duration, continuation: CheckedContinuation<Void, any Error>)] = [:]
        var cancelled: Set<Int> = []
    }

    private let state = Locked(State())

    func sleep(_ duration: Duration) async throws {
        let id = state.withLock { state in
            state.next += 1
            return state.next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelled = state.withLock { state in
                    if state.cancelled.contains(id) { return true }
                    state.sleeping[id] = (duration, continuation)
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                state.cancelled.insert(id)
                return state.sleeping.removeValue(forKey: id)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Waits until something sleeps for `duration`, then wakes it.
    func fire(_ duration: Duration) async {
        while true {
            let woken = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let id = state.sleeping.first(where: { $0.value.duration == duration })?.key else { return nil }
                return state.sleeping.removeValue(forKey: id)?.continuation
            }
            if let woken {
                woken.resume()
                return
            }
            await Task.yield()
        }
    }

    var timing: CTAPHIDTiming {
        CTAPHIDTiming(keepaliveInterval: .milliseconds(100), messageTimeout: .seconds(3)) { try await self.sleep($0) }
    }
}

/// An authenticator that holds each CBOR request until the test answers it,
/// and records winks and cancellations.
final class GatedHandler: CTAPHIDMessageHandler {
    private struct State {
        var pending: CheckedContinuation<[UInt8], Never>?
        var cancelled = 0
        var winks = 0
        var status = CTAPHIDKeepaliveStatus.processing
    }

    private let state = Locked(State())
    /// Each request, once it waits.
    let requests: AsyncStream<[UInt8]>
    private let requestsInput: AsyncStream<[UInt8]>.Continuation
    /// Each wink.
    let winks: AsyncStream<Void>
    private let winksInput: AsyncStream<Void>.Continuation

    init(status: CTAPHIDKeepaliveStatus = .processing) {
        (requests, requestsInput) = AsyncStream.makeStream()
        (winks, winksInput) = AsyncStream.makeStream()
        state.withLock { $0.status = status }
    }

    var cancellations: Int { state.withLock { $0.cancelled } }

    func cbor(_ request: [UInt8], from requester: CTAPHIDRequester, status: @escaping @Sendable (CTAPHIDKeepaliveStatus) -> Void) async -> [UInt8] {
        status(state.withLock { $0.status })
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { $0.pending = continuation }
                requestsInput.yield(request)
            }
        } onCancel: {
            let pending = state.withLock { state in
                state.cancelled += 1
                defer { state.pending = nil }
                return state.pending
            }
            // What the work would have returned had it not been cancelled.
            pending?.resume(returning: [0x00, 0xA0])
        }
    }

    func wink() async {
        winksInput.yield()
    }

    /// Answers the waiting request.
    func respond(_ response: [UInt8]) {
        state.withLock { state in
            defer { state.pending = nil }
            return state.pending
        }?.resume(returning: response)
    }
}

/// Reads whole messages from a server's reports.
struct MessageReader {
    var iterator: AsyncStream<[UInt8]>.Iterator

    init(_ server: CTAPHIDServer) {
        iterator = server.reports.makeAsyncIterator()
    }

    mutating func next() async -> CTAPHIDMessage? {
        guard let first = await iterator.next(), first.count == 64,
              case .initialization(let channel, let command, let length, let data)? = CTAPHIDPacket(report: first),
              var reassembly = CTAPHIDReassembly(channel: channel, command: command, length: length, data: data) else { return nil }
        if let message = reassembly.message { return message }
        while let report = await iterator.next() {
            guard case .continuation(_, let sequence, let data)? = CTAPHIDPacket(report: report) else { return nil }
            switch reassembly.append(sequence: sequence, data: data) {
            case .incomplete: continue
            case .complete(let message): return message
            case .outOfSequence: return nil
            }
        }
        return nil
    }
}
