extension CTAPHIDServer {
    /// Serves one HID device until its reports end: each report from the
    /// host to a new server over `handler`, each answer to `send`. What
    /// `sesame passkey serve` runs for `/dev/uhid` and for each connection
    /// of its socket.
    ///
    /// - Parameters:
    ///   - handler: Answers the CBOR requests (a ``CTAP2Authenticator``).
    ///   - reports: The host's 64-byte reports, ending when it goes.
    ///   - send: Delivers one 64-byte report to the host; `false` once it cannot.
    public static func serve(
        _ handler: some CTAPHIDMessageHandler, reports: AsyncStream<[UInt8]>, send: @escaping @Sendable ([UInt8]) -> Bool
    ) async {
        let device = CTAPHIDServer(handler: handler)
        let answers = Task {
            for await report in device.reports where !send(report) { break }
        }
        for await report in reports { await device.receive(report) }
        await device.close()
        answers.cancel()
    }
}
