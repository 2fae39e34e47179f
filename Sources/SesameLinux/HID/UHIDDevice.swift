#if os(Linux)
import Glibc
import Sesame

/// A virtual FIDO HID device made through `/dev/uhid` (linux/uhid.h): the
/// kernel shows it as a hidraw node with the FIDO usage page, so browsers
/// and libfido2 find it as they find a USB security key, and systemd's
/// `fido_id` tags it for the logged-in user.
///
/// It only moves 64-byte reports: ``reports`` yields what the host writes
/// (`UHID_OUTPUT`), ``send(_:)`` passes a report to the host
/// (`UHID_INPUT2`). Events are read on a thread of its own, polling the
/// non-blocking device, never on Swift's cooperative pool; a write to
/// `/dev/uhid` never blocks (the kernel hands the report on at once).
///
/// It says `BUS_USB`: `BUS_VIRTUAL` would be the truer word, but browsers
/// sort HID devices by their bus, and tpm-fido and other virtual FIDO
/// devices use `BUS_USB` for that reason; the vendor and product ids are
/// pid.codes' open-source vendor (0x1209) and a test product (0x0001).
public final class UHIDDevice: Sendable {
    /// Where the kernel's uhid interface lives.
    public static let defaultPath = "/dev/uhid"
    /// The HID device's name, shown by browsers and `lsusb`-like tools.
    public static let defaultName = "Sesame passkey"

    /// The host's reports, 64 bytes each (a leading report number 0 is
    /// removed); ends when the device is closed.
    public let reports: AsyncStream<[UInt8]>

    private struct State {
        var closed = false
        var openedByHost = false
    }

    private let descriptor: Int32
    private let state: Locked<State>
    private let wake: WakePipe

    /// Opens `/dev/uhid` and creates the device.
    ///
    /// - Parameters:
    ///   - path: The uhid interface (tests give another).
    ///   - name: The device's name.
    /// - Returns: The device, serving until ``close()``.
    /// - Throws: ``HIDTransportError`` naming the path and what to do: load
    ///   the `uhid` module, or let this user open it with a udev rule.
    public static func open(path: String = defaultPath, name: String = defaultName) throws(HIDTransportError) -> UHIDDevice {
        let descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            let reason = String(cString: strerror(code))
            let advice = code == ENOENT
                ? "load the uhid module (as root: `modprobe uhid`; list it in /etc/modules-load.d/ to keep it)"
                : "let this user open it with a udev rule, e.g. KERNEL==\"uhid\", GROUP=\"<your group>\", MODE=\"0660\" in /etc/udev/rules.d/"
            throw HIDTransportError("cannot open \(path) (\(reason)): \(advice)")
        }
        return try UHIDDevice(descriptor: descriptor, name: name)
    }

    /// Creates the device on an open uhid descriptor (tests pass one end of
    /// a socket pair) and starts reading its events.
    ///
    /// - Parameters:
    ///   - descriptor: `/dev/uhid` opened read-write and non-blocking; owned
    ///     by the device from now on, closed even when this throws.
    ///   - name: The device's name.
    /// - Throws: ``HIDTransportError`` when `UHID_CREATE2` is refused.
    package init(descriptor: Int32, name: String) throws(HIDTransportError) {
        let description = UHIDDeviceDescription(
            name: name, bus: 0x03, vendor: 0x1209, product: 0x0001, reportDescriptor: FIDOReportDescriptor.bytes
        )
        guard let wake = WakePipe() else {
            Glibc.close(descriptor)
            throw HIDTransportError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        let create = UHIDEvent.create2(description).encoded ?? []
        guard Self.put(create, to: descriptor) else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw HIDTransportError("the kernel refused to create the HID device (\(reason))")
        }
        let state = Locked(State())
        let reports = ReportReader.start(name: "sesame-uhid") { input in
            Self.run(descriptor: descriptor, wake: wake, state: state, input: input)
        }
        guard let reports else {
            Self.destroy(descriptor)
            throw HIDTransportError("cannot start a thread to read the HID device")
        }
        self.descriptor = descriptor
        self.wake = wake
        self.state = state
        self.reports = reports
    }

    /// Whether a program holds the device's hidraw node open (the kernel's
    /// `UHID_OPEN` and `UHID_CLOSE`).
    public var isOpenedByHost: Bool { state.withLock { $0.openedByHost } }

    /// Passes one report to the host.
    ///
    /// - Parameter report: Exactly 64 bytes.
    /// - Returns: `false` when the report is not 64 bytes, the device is
    ///   closed, or the kernel refused it.
    @discardableResult
    public func send(_ report: [UInt8]) -> Bool {
        guard report.count == 64, let event = UHIDEvent.input2(report).encoded else { return false }
        return state.withLock { state in
            // Under the lock: the reading thread closes the descriptor under it too.
            guard !state.closed else { return false }
            return Self.put(event, to: descriptor)
        }
    }

    /// Removes the device (`UHID_DESTROY`) and ends ``reports``.
    public func close() {
        state.withLock { $0.closed = true }
        wake.wake()
    }

    // MARK: The reading thread

    private static func run(descriptor: Int32, wake: WakePipe, state: Locked<State>, input: AsyncStream<[UInt8]>.Continuation) {
        var buffer = [UInt8](repeating: 0, count: UHIDEvent.size)
        while !state.withLock({ $0.closed }) {
            guard let events = wake.wait(for: descriptor, events: Int16(POLLIN)) else { break }
            guard events != 0 else { continue }
            let count = read(descriptor, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { break }
            guard count > 0, let event = UHIDEvent(decoding: Array(buffer[0..<count])) else { continue }
            switch event {
            case .output(let data, _):
                if let report = UHIDEvent.report(fromOutput: data) { input.yield(report) }
            case .open: state.withLock { $0.openedByHost = true }
            case .close, .stop: state.withLock { $0.openedByHost = false }
            default: break
            }
        }
        state.withLock { state in
            state.closed = true
            destroy(descriptor)
        }
        input.finish()
    }

    private static func destroy(_ descriptor: Int32) {
        if let event = UHIDEvent.destroy.encoded {
            _ = put(event, to: descriptor)
        }
        Glibc.close(descriptor)
    }

    /// Writes one whole event. `/dev/uhid` never raises SIGPIPE, but the
    /// descriptor may be a socket (the tests' stand-in for the kernel, or
    /// anything an app passes): there a reader that has gone must be EPIPE
    /// for this write, never SIGPIPE for the app's process, so a socket gets
    /// `send` with MSG_NOSIGNAL and anything else `write`.
    private static func put(_ event: [UInt8], to descriptor: Int32) -> Bool {
        event.withUnsafeBytes { bytes in
            var written = Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if written < 0, errno == ENOTSOCK { written = write(descriptor, bytes.baseAddress, bytes.count) }
            return written == bytes.count
        }
    }
}
#endif
