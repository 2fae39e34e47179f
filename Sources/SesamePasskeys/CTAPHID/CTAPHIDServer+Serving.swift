extension CTAPHIDServer {
    /// Serves one HID device until its reports end: each report from the
    /// host to a new server over `handler`, each answer to `send`. What
    /// `sesame passkey serve` runs for `/dev/uhid` and for each connection
    /// of its socket.
    ///
    /// - Parameters:
    ///   - handler: Answers the CBOR requests (a ``CTAP2Authenticator``).
    ///   - reports: The host's 64-byte reports, ending when it goes.
    ///   - timing: The server's times, ``CTAPHIDTiming/idleTimeout`` among them.
    ///   - endsWhenIdle: Stop serving once the host has sent nothing and
    ///     nothing was pending for ``CTAPHIDTiming/idleTimeout``: for one of
    ///     a bounded number of connections, so silent ones cannot take every
    ///     place. Not for the one device a browser finds.
    ///   - client: The program on the other end, escaped, for the owner's
    ///     dialogs; `nil` when the transport cannot tell (`/dev/uhid`).
    ///   - send: Delivers one 64-byte report to the host; `false` once it cannot.
    public static func serve(
        _ handler: some CTAPHIDMessageHandler, reports: AsyncStream<[UInt8]>, timing: CTAPHIDTiming = CTAPHIDTiming(),
        endsWhenIdle: Bool = false, client: String? = nil, send: @escaping @Sendable ([UInt8]) -> Bool
    ) async {
        let device = CTAPHIDServer(handler: handler, timing: timing, client: client)
        let answers = Task {
            for await report in device.reports where !send(report) { break }
        }
        let receiving = Task {
            for await report in reports { await device.receive(report) }
        }
        let watcher = endsWhenIdle ? Task {
            while true {
                let seen = await device.activityCount
                do { try await timing.sleep(timing.idleTimeout) } catch { return }
                if await device.isIdle(since: seen) {
                    receiving.cancel()
                    return
                }
            }
        } : nil
        await receiving.value
        watcher?.cancel()
        await device.close()
        answers.cancel()
    }
}
