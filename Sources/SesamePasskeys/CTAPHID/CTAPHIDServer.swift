import Sesame

/// A FIDO2 device's CTAPHID side (CTAP 2.1 §11.2): feed it the host's
/// 64-byte reports with ``receive(_:)`` and forward what ``reports`` yields
/// to the host. It reassembles messages, keeps channels (INIT, re-sync,
/// busy, timeouts), answers PING, MSG and WINK itself, hands CBOR requests
/// to its ``CTAPHIDMessageHandler``, sends keepalives while one is pending,
/// and turns CANCEL into a cancelled handler task (SPEC P3).
///
/// Everything the host sends is hostile input (SPEC P5): a report of any
/// size but 64 bytes is dropped, every length is checked before it is
/// trusted, at most 16 channels are kept, one transaction runs at a time,
/// and a message must arrive whole within ``CTAPHIDTiming/messageTimeout``.
/// The rules are `CTAPHIDChannels`'s; this actor adds the tasks and the time.
///
/// One server is one device: a transport that serves several hosts at once
/// (several socket connections) makes one server per connection, and the
/// handler then sees their requests concurrently.
public actor CTAPHIDServer {
    /// The reports to send to the host, 64 bytes each, in order. At most
    /// 4096 wait unread (a host that never reads loses the newest).
    public nonisolated let reports: AsyncStream<[UInt8]>
    private let output: AsyncStream<[UInt8]>.Continuation
    private let handler: any CTAPHIDMessageHandler
    /// This server's connection number, for ``CTAPHIDRequester``.
    private let connection: UInt64
    private static let connections = Locked<UInt64>(0)
    /// The program on the other end, for ``CTAPHIDRequester/client``.
    private let client: String?
    private let timing: CTAPHIDTiming
    private var channels: CTAPHIDChannels
    private var closed = false
    /// The message arriving's timeout, by the message's id.
    private var timeout: (id: UInt64, task: Task<Void, Never>)?
    /// The pending request's keepalives, by transaction.
    private var keepalive: (transaction: UInt64, task: Task<Void, Never>)?
    /// The handler's work, by transaction (an aborted one until it returns).
    private var work: [UInt64: Task<Void, Never>] = [:]
    /// The pending request's user-action timeout, by transaction.
    private var deadline: (transaction: UInt64, task: Task<Void, Never>)?
    /// Requests cancelled by their user-action timeout, answered so.
    private var expired: Set<UInt64> = []
    /// Counts reports and answers, so a watcher can tell a silent connection.
    private var activity: UInt64 = 0

    /// - Parameters:
    ///   - handler: Answers CBOR requests and WINK.
    ///   - timing: The keepalive interval, the message timeout, and how to wait.
    ///   - client: The program on the other end, escaped, for the owner's
    ///     dialogs (``CTAPHIDRequester/client``); `nil` when the transport
    ///     cannot tell.
    public init(handler: some CTAPHIDMessageHandler, timing: CTAPHIDTiming = CTAPHIDTiming(), client: String? = nil) {
        self.init(handler: handler, timing: timing, channels: CTAPHIDChannels(), client: client)
    }

    /// A server whose channels are allocated from `firstChannel` up, for
    /// the fuzzer (another package), whose inputs must name channels before
    /// they are allocated.
    ///
    /// - Parameters:
    ///   - handler: Answers CBOR requests and WINK.
    ///   - timing: The keepalive interval, the message timeout, and how to wait.
    ///   - firstChannel: The channel the first INIT allocates.
    @_spi(Testing)
    public init(handler: some CTAPHIDMessageHandler, timing: CTAPHIDTiming, firstChannel: UInt32) {
        self.init(handler: handler, timing: timing, channels: CTAPHIDChannels(firstChannel: firstChannel))
    }

    /// A server whose channel rules are given, for tests that want known
    /// channel numbers or fewer channels.
    ///
    /// - Parameters:
    ///   - handler: Answers CBOR requests and WINK.
    ///   - timing: The keepalive interval, the message timeout, and how to wait.
    ///   - channels: The channel state to start from.
    ///   - client: The program on the other end, for the owner's dialogs.
    package init(handler: some CTAPHIDMessageHandler, timing: CTAPHIDTiming, channels: CTAPHIDChannels, client: String? = nil) {
        self.handler = handler
        self.client = client
        connection = Self.connections.withLock { count in
            count += 1
            return count
        }
        self.timing = timing
        self.channels = channels
        (reports, output) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingOldest(4096))
    }

    deinit {
        output.finish()
        timeout?.task.cancel()
        keepalive?.task.cancel()
        deadline?.task.cancel()
        for task in work.values { task.cancel() }
    }

    /// Takes one report from the host; what it causes is yielded to
    /// ``reports`` (at once for INIT, PING, MSG and errors; later for a CBOR
    /// request or WINK).
    ///
    /// - Parameter report: The report, without a HID report id.
    public func receive(_ report: [UInt8]) {
        guard !closed else { return }
        activity &+= 1
        perform(channels.receive(report))
    }

    /// Stops serving: pending work is cancelled and never answered, and
    /// ``reports`` ends.
    public func close() {
        closed = true
        timeout?.task.cancel()
        keepalive?.task.cancel()
        deadline?.task.cancel()
        for task in work.values { task.cancel() }
        timeout = nil
        keepalive = nil
        deadline = nil
        work = [:]
        output.finish()
    }

    // MARK: Actions

    private func perform(_ actions: [CTAPHIDChannels.Action]) {
        for action in actions {
            switch action {
            case .send(let message):
                for report in message.reports ?? CTAPHIDMessage.error(.other, channel: message.channel).reports ?? [] {
                    output.yield(report)
                }
            case .cbor(let transaction, let channel, let request):
                start(transaction: transaction, channel: channel, request: request)
            case .wink(let transaction, _):
                // Isolated to the server (it uses self): the handler runs off it.
                work[transaction] = Task { [handler] in
                    await handler.wink()
                    self.finished(transaction: transaction, response: [])
                }
            case .cancel(let transaction), .abort(let transaction):
                work[transaction]?.cancel()
            }
        }
        reconcileTimers()
    }

    private func start(transaction: UInt64, channel: UInt32, request: [UInt8]) {
        let status = Locked(CTAPHIDKeepaliveStatus.processing)
        let requester = CTAPHIDRequester(connection: connection, channel: channel, client: client)
        work[transaction] = Task { [handler] in
            let response = await handler.cbor(request, from: requester) { new in status.withLock { $0 = new } }
            self.finished(transaction: transaction, response: response)
        }
        let (interval, sleep) = (timing.keepaliveInterval, timing.sleep)
        keepalive = (transaction, Task { [weak self] in
            while true {
                do { try await sleep(interval) } catch { return }
                guard let self, await self.sendKeepalive(transaction: transaction, status: status.withLock { $0 }) else { return }
            }
        })
        let limit = timing.userActionTimeout
        deadline = (transaction, Task { [weak self] in
            do { try await sleep(limit) } catch { return }
            await self?.expire(transaction: transaction)
        })
    }

    private func finished(transaction: UInt64, response: [UInt8]) {
        work[transaction] = nil
        activity &+= 1
        let response = expired.remove(transaction) != nil ? [CTAP2Status.userActionTimeout.rawValue] : response
        guard !closed else { return }
        perform(channels.finish(transaction: transaction, response: response))
    }

    /// The request waited its user-action timeout: its work is cancelled
    /// and the host is answered `CTAP2_ERR_USER_ACTION_TIMEOUT`.
    private func expire(transaction: UInt64) {
        guard !closed, case .processing(_, transaction, .cbor, _) = channels.phase, let task = work[transaction] else { return }
        expired.insert(transaction)
        task.cancel()
    }

    /// Whether nothing arrived or was answered since `seen` (an
    /// ``activity`` count) and nothing is pending.
    func isIdle(since seen: UInt64) -> Bool {
        activity == seen && work.isEmpty && channels.phase == .idle
    }

    /// The ``activity`` count now.
    var activityCount: UInt64 { activity }

    /// Sends one keepalive; `false` once the transaction is over.
    private func sendKeepalive(transaction: UInt64, status: CTAPHIDKeepaliveStatus) -> Bool {
        guard !closed, case .processing(let channel, transaction, .cbor, _) = channels.phase else { return false }
        perform([.send(CTAPHIDMessage(channel: channel, command: .keepalive, payload: [status.rawValue]))])
        return true
    }

    private func timedOut(id: UInt64) {
        guard !closed else { return }
        perform(channels.timeOut(receiving: id))
    }

    /// Starts the timeout of a message that began arriving and the
    /// keepalives of a request; stops those whose message or request is over.
    private func reconcileTimers() {
        if let current = timeout, current.id != channels.receivingID {
            current.task.cancel()
            timeout = nil
        }
        if timeout == nil, let id = channels.receivingID {
            let (limit, sleep) = (timing.messageTimeout, timing.sleep)
            timeout = (id, Task { [weak self] in
                do { try await sleep(limit) } catch { return }
                await self?.timedOut(id: id)
            })
        }
        if let current = deadline {
            if case .processing(_, current.transaction, _, _) = channels.phase {} else {
                current.task.cancel()
                deadline = nil
            }
        }
        if let current = keepalive {
            if case .processing(_, current.transaction, _, _) = channels.phase { return }
            current.task.cancel()
            keepalive = nil
        }
    }
}
