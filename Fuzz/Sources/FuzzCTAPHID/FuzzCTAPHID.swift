// libFuzzer target for CTAPHID (CTAP 2.1 §11.2), what a browser or any
// local program writes to the passkey device (SPEC P5: hostile input).
//
// Byte 0 picks the clock: even, the keepalive and message timers never fire;
// odd, they fire after a few scheduler turns (timeouts mid-message,
// keepalives while a request waits). The rest, cut into 64-byte reports
// (the last zero-padded), is fed to a `CTAPHIDServer` whose handler echoes
// each CBOR request after a success byte. Channels are allocated from 1 up,
// so inputs can name them. The harness checks what the server promises:
// every report it sends is 64 bytes, they form whole messages of the
// commands a device sends (PING, MSG, INIT, WINK, CBOR, KEEPALIVE, ERROR),
// and no crash, hang or sanitizer report on any input.
#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
@_spi(Testing) import SesamePasskeys

private struct EchoHandler: CTAPHIDMessageHandler {
    func cbor(_ request: [UInt8], from requester: CTAPHIDRequester, status: @escaping @Sendable (CTAPHIDKeepaliveStatus) -> Void) async -> [UInt8] {
        status(.userPresenceNeeded)
        await Task.yield()
        return [0x00] + request
    }

    func wink() async {}
}

/// Whether `reports` are whole CTAPHID messages from a device, back to back.
private func areWholeMessages(_ reports: [[UInt8]]) -> Bool {
    let commands: Set<UInt8> = [0x81, 0x83, 0x86, 0x88, 0x90, 0xBB, 0xBF]
    var index = 0
    while index < reports.count {
        let first = reports[index]
        guard first.count == 64, commands.contains(first[4]) else { return false }
        let length = Int(first[5]) << 8 | Int(first[6])
        guard length <= 7609 else { return false }
        let continuations = length <= 57 ? 0 : (length - 57 + 58) / 59
        for sequence in 0..<continuations {
            let next = index + 1 + sequence
            guard next < reports.count, reports[next].count == 64, reports[next][0..<4] == first[0..<4],
                  reports[next][4] == UInt8(sequence) else { return false }
        }
        index += 1 + continuations
    }
    return true
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCTAPHID(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let mode = input.first else { return 0 }
    let body = input.dropFirst()
    let reports = stride(from: body.startIndex, to: body.endIndex, by: 64).map { start in
        let chunk = Array(body[start..<min(start + 64, body.endIndex)])
        return chunk + [UInt8](repeating: 0, count: 64 - chunk.count)
    }
    let fastClock = mode & 1 == 1
    let sleep: @Sendable (Duration) async throws -> Void = { _ in
        guard fastClock else { return try await Task.sleep(for: .seconds(3600)) }
        for _ in 0..<4 { await Task.yield() }
        try Task.checkCancellation()
    }
    let sent = blocking {
        let server = CTAPHIDServer(handler: EchoHandler(), timing: CTAPHIDTiming(sleep: sleep), firstChannel: 1)
        for report in reports {
            await server.receive(report)
            await Task.yield()
        }
        await server.close()
        var sent: [[UInt8]] = []
        for await report in server.reports { sent.append(report) }
        return sent
    }
    precondition(sent.count <= 4096, "more reports than the output buffer holds")
    // A full buffer (4096 reports) drops the newest, which may cut a message.
    precondition(sent.count == 4096 || areWholeMessages(sent), "the server sent something other than whole messages")
    return 0
}

@_cdecl("FuzzCTAPHID_main")
public func fuzzCTAPHIDMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzCTAPHID(data, size) }
}
