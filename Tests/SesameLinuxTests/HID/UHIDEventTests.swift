import Foundation
#if os(Linux)
import CSesameTestProcess
import Glibc
@testable import SesameLinux
import SesameLinuxTesting
import Testing

/// The `/dev/uhid` events against linux/uhid.h's layout, the FIDO report
/// descriptor against HID's item encoding, and the device's loop against a
/// stand-in for the kernel (a SOCK_SEQPACKET socket pair keeps each event
/// one message, as /dev/uhid's reads and writes do).
@Suite("uhid: the kernel's event layout, the FIDO report descriptor, the device", .timeLimit(.minutes(1)))
struct UHIDEventTests {
    // From linux/uhid.h: struct uhid_event is packed, __u32 type then the
    // union. uhid_create2_req = name[128] + phys[64] + uniq[64] + rd_size u16
    // + bus u16 + vendor, product, version, country u32 + rd_data[4096] =
    // 4372 bytes; the union is padded to 4376 by uhid_start_req's __u64, so
    // sizeof(struct uhid_event) = 4 + 4376 = 4380. uhid_input2_req = size u16
    // + data[4096]; uhid_output_req = data[4096] + size u16 + rtype u8.
    static let eventSize = 4380
    static let union = 4
    static let (rdSize, bus, vendor, product, rdData) = (union + 256, union + 258, union + 260, union + 264, union + 276)
    static let (outputSize, outputType) = (union + 4096, union + 4098)

    private static func little(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> Int {
        (0..<width).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }

    @Test("P5: UHID_CREATE2 is 4380 bytes, type 11, the name, BUS_USB, the ids and the descriptor at the kernel's offsets")
    func create2() throws {
        let description = UHIDDeviceDescription(name: "Sesame passkey", bus: 3, vendor: 0x1209, product: 1, reportDescriptor: FIDOReportDescriptor.bytes)
        let bytes = try #require(UHIDEvent.create2(description).encoded)
        #expect(bytes.count == Self.eventSize)
        #expect(Self.little(bytes, 0, 4) == 11)
        #expect(Array(bytes[4..<18]) == Array("Sesame passkey".utf8) && bytes[18] == 0)
        #expect(Self.little(bytes, Self.rdSize, 2) == 34)
        #expect(Self.little(bytes, Self.bus, 2) == 3)
        #expect(Self.little(bytes, Self.vendor, 4) == 0x1209)
        #expect(Self.little(bytes, Self.product, 4) == 1)
        #expect(Array(bytes[Self.rdData..<(Self.rdData + 34)]) == FIDOReportDescriptor.bytes)
        let long = UHIDDeviceDescription(name: String(repeating: "n", count: 300), bus: 3, vendor: 0, product: 0, reportDescriptor: [])
        #expect(try #require(UHIDEvent.create2(long).encoded)[4 + 127] == 0, "the name stays NUL-terminated")
    }

    @Test("P5: UHID_INPUT2 is type 12, size then data; UHID_DESTROY is type 1; too much data is refused")
    func input2AndDestroy() throws {
        let report = (0..<64).map { UInt8($0) }
        let bytes = try #require(UHIDEvent.input2(report).encoded)
        #expect(bytes.count == Self.eventSize)
        #expect(Self.little(bytes, 0, 4) == 12 && Self.little(bytes, Self.union, 2) == 64)
        #expect(Array(bytes[(Self.union + 2)..<(Self.union + 66)]) == report)
        #expect(UHIDEvent.destroy.encoded.map { Self.little($0, 0, 4) } == 1)
        #expect(UHIDEvent.input2([UInt8](repeating: 0, count: 4097)).encoded == nil)
    }

    /// An UHID_OUTPUT event as the kernel writes it.
    static func output(_ data: [UInt8], size: Int? = nil) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: eventSize)
        bytes[0] = 6
        bytes.replaceSubrange(union..<(union + data.count), with: data)
        let size = size ?? data.count
        bytes[outputSize] = UInt8(size & 0xFF)
        bytes[outputSize + 1] = UInt8(size >> 8)
        bytes[outputType] = 1
        return bytes
    }

    @Test("P5: UHID_OUTPUT is read at the kernel's offsets; the report number 0 is removed; lengths are not trusted")
    func output() {
        let report = (0..<64).map { UInt8(100 + $0) }
        let event = UHIDEvent(decoding: Self.output([0] + report))
        #expect(event == .output(data: [0] + report, reportType: 1))
        #expect(UHIDEvent.report(fromOutput: [0] + report) == report)
        #expect(UHIDEvent.report(fromOutput: report) == report)
        #expect(UHIDEvent.report(fromOutput: [1] + report) == nil)
        #expect(UHIDEvent.report(fromOutput: Array(report.prefix(10))) == nil)
        if case .output(let data, _)? = UHIDEvent(decoding: Self.output([], size: 0xFFFF)) { #expect(data.count == 4096) } else { Issue.record("not an output") }
        #expect(UHIDEvent(decoding: Array(Self.output(report).prefix(100))) == nil)
        #expect(UHIDEvent(decoding: [4, 0, 0, 0]) == .open)
        #expect(UHIDEvent(decoding: [9, 0, 0, 0]) == .other(type: 9))
        #expect(UHIDEvent(decoding: [2, 0]) == nil)
    }

    @Test("P5: the report descriptor is FIDO's: usage page 0xF1D0, usage CTAPHID, one 64-byte input and one 64-byte output report, no report ids")
    func descriptor() {
        var (usagePage, usages, reportSize, reportCount) = (0, [Int](), 0, 0)
        var (collections, inputs, outputs, reportIDs, depth) = ([(usage: Int, kind: Int)](), [Int](), [Int](), 0, 0)
        let bytes = FIDOReportDescriptor.bytes
        var index = 0
        while index < bytes.count {
            let prefix = bytes[index]
            let size = [0, 1, 2, 4][Int(prefix & 0x03)]
            let value = (0..<size).reduce(0) { $0 | Int(bytes[index + 1 + $1]) << (8 * $1) }
            switch (prefix >> 2 & 0x03, prefix >> 4) {  // (type, tag)
            case (1, 0x0): usagePage = value
            case (2, 0x0): usages.append(value)
            case (1, 0x7): reportSize = value
            case (1, 0x9): reportCount = value
            case (1, 0x8): reportIDs += 1
            case (0, 0xA): collections.append((usages.last ?? -1, value)); usages = []; depth += 1
            case (0, 0x8): inputs.append(reportSize * reportCount / 8); usages = []
            case (0, 0x9): outputs.append(reportSize * reportCount / 8); usages = []
            case (0, 0xC): depth -= 1
            default: break
            }
            index += 1 + size
        }
        #expect(index == bytes.count)
        #expect(usagePage == 0xF1D0)
        #expect(collections.count == 1 && collections[0].usage == 0x01 && collections[0].kind == 0x01, "one application collection of usage CTAPHID")
        #expect(inputs == [64] && outputs == [64])
        #expect(reportIDs == 0 && depth == 0)
    }

    @Test("P5: python-fido2's own parser, the one its Linux enumerator runs on a hidraw device's descriptor, finds a FIDO device with 64-byte reports",
          .enabled(if: FileManager.default.fileExists(atPath: TestPython.path), "needs \(TestPython.path) with python-fido2 2.x"))
    func descriptorAsPythonFido2ReadsIt() throws {
        let hex = FIDOReportDescriptor.bytes.map { String(format: "%02x", $0) }.joined()
        let parser = Process()
        parser.executableURL = URL(fileURLWithPath: TestPython.path)
        parser.arguments = ["-c", "import sys; from fido2.hid.base import parse_report_descriptor as p; print(*p(bytes.fromhex(sys.argv[1])))", hex]
        let output = Pipe(), errors = Pipe()
        parser.standardOutput = output
        parser.standardError = errors
        try parser.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        parser.waitUntilExit()
        #expect(parser.terminationStatus == 0 && printed == "64 64\n",
                "python-fido2 for \(TestPython.path) (`\(TestPython.path) -m pip install 'fido2>=2,<3'`) read: \(printed) \(complaint)")
    }

    @Test("P5: opening a missing /dev/uhid fails with an error naming it and saying to load the module")
    func openFails() {
        let path = "/nonexistent-\(getpid())/uhid"
        #expect { try UHIDDevice.open(path: path) } throws: { error in
            let text = String(describing: error)
            return text.contains(path) && text.contains("modprobe uhid")
        }
        if access(UHIDDevice.defaultPath, W_OK) != 0 {
            #expect { try UHIDDevice.open() } throws: { String(describing: $0).contains("/dev/uhid") }
        }
    }

    @Test("P5: the device creates itself, passes the host's reports on, sends reports, and destroys itself on close")
    func deviceLoop() async throws {
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        let kernel = ends[1]
        defer { Glibc.close(kernel) }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let device = try UHIDDevice(descriptor: ends[0], name: "Sesame passkey")
        var buffer = [UInt8](repeating: 0, count: 2 * Self.eventSize)
        #expect(read(kernel, &buffer, buffer.count) == Self.eventSize && buffer[0] == 11)

        let report = (0..<64).map { UInt8($0 ^ 0x5A) }
        let event = Self.output([0] + report)
        #expect(write(kernel, event, event.count) == event.count)
        var reports = device.reports.makeAsyncIterator()
        #expect(await reports.next() == report)

        #expect(device.send(report))
        #expect(!device.send([1, 2, 3]))
        #expect(read(kernel, &buffer, buffer.count) == Self.eventSize && buffer[0] == 12)
        #expect(Array(buffer[6..<70]) == report)

        device.close()
        #expect(await reports.next() == nil)
        #expect(read(kernel, &buffer, buffer.count) == Self.eventSize && buffer[0] == 1)
        #expect(read(kernel, &buffer, buffer.count) == 0, "the descriptor is closed")
        #expect(!device.send(report))
    }

    @Test("P5: a kernel end that has gone makes the device's writes fail, raising no SIGPIPE on the reading thread or the caller's (issue 44)")
    func kernelGoneRaisesNoSIGPIPE() async throws {
        // A stream socket: a SEQPACKET peer that has gone answers ECONNRESET,
        // a stream's answers EPIPE and, to `write`, SIGPIPE.
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let onProductThreads = sesame_test_process_sigpipes_on_sesame_threads()
        let device = try UHIDDevice(descriptor: ends[0], name: "Sesame passkey")
        var buffer = [UInt8](repeating: 0, count: 2 * Self.eventSize)
        #expect(read(ends[1], &buffer, buffer.count) > 0)
        close(ends[1])
        // The reading thread sees the end, and destroys the device: a write
        // (UHID_DESTROY) to a reader that has gone.
        var reports = device.reports.makeAsyncIterator()
        #expect(await reports.next() == nil)
        let onThisThread = sesame_test_process_sigpipes_on_this_thread()
        #expect(!device.send([UInt8](repeating: 7, count: 64)))
        #expect(sesame_test_process_sigpipes_on_this_thread() == onThisThread, "send raised SIGPIPE on the caller's thread")
        #expect(sesame_test_process_sigpipes_on_sesame_threads() == onProductThreads, "the uhid thread raised SIGPIPE")
    }
}
#endif
