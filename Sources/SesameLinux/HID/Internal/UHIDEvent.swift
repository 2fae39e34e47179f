/// The events of `/dev/uhid` (linux/uhid.h) as bytes, in the kernel's own
/// layout: `struct uhid_event` is packed, a `__u32 type` in host byte order
/// then a union of requests, 4380 bytes in all (the largest member,
/// `uhid_create2_req`, is 4372 bytes, and the union is padded to 4376 by
/// `uhid_start_req`'s `__u64`). Pure, so the layout is unit-tested on a
/// machine without `/dev/uhid`.
enum UHIDEvent: Equatable {
    /// `UHID_DESTROY` (1): remove the device.
    case destroy
    /// `UHID_START` (2): the kernel's HID driver bound the device.
    case start
    /// `UHID_STOP` (3): the driver let it go.
    case stop
    /// `UHID_OPEN` (4): a program (a browser, libfido2) opened its hidraw node.
    case open
    /// `UHID_CLOSE` (5): the last such program closed it.
    case close
    /// `UHID_OUTPUT` (6): a report the host wrote, as the kernel passed it
    /// (`rtype` is `UHID_OUTPUT_REPORT`, 1, for a hidraw write).
    case output(data: [UInt8], reportType: UInt8)
    /// `UHID_CREATE2` (11): make the device.
    case create2(UHIDDeviceDescription)
    /// `UHID_INPUT2` (12): a report from the device to the host.
    case input2([UInt8])
    /// Any other event type (`UHID_GET_REPORT`, `UHID_SET_REPORT`, legacy ones).
    case other(type: UInt32)

    /// `sizeof(struct uhid_event)`.
    static let size = 4380
    /// `UHID_DATA_MAX`: the most a report or a report descriptor may hold.
    static let dataMaximum = 4096

    /// The event as written to `/dev/uhid` (always the whole struct, zero-filled);
    /// `nil` for an event only the kernel sends, or data over 4096 bytes.
    var encoded: [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: Self.size)
        switch self {
        case .destroy:
            Self.put(UInt32(1), into: &bytes, at: 0)
        case .create2(let description):
            guard description.reportDescriptor.count <= Self.dataMaximum else { return nil }
            Self.put(UInt32(11), into: &bytes, at: 0)
            // uhid_create2_req at 4: name[128], phys[64], uniq[64], rd_size
            // (256), bus (258), vendor (260), product (264), version (268),
            // country (272), rd_data (276).
            Self.put(text: description.name, capacity: 128, into: &bytes, at: 4)
            Self.put(text: description.physical, capacity: 64, into: &bytes, at: 4 + 128)
            Self.put(text: description.unique, capacity: 64, into: &bytes, at: 4 + 192)
            Self.put(UInt16(description.reportDescriptor.count), into: &bytes, at: 4 + 256)
            Self.put(description.bus, into: &bytes, at: 4 + 258)
            Self.put(description.vendor, into: &bytes, at: 4 + 260)
            Self.put(description.product, into: &bytes, at: 4 + 264)
            Self.put(description.version, into: &bytes, at: 4 + 268)
            Self.put(description.country, into: &bytes, at: 4 + 272)
            bytes.replaceSubrange((4 + 276)..<(4 + 276 + description.reportDescriptor.count), with: description.reportDescriptor)
        case .input2(let data):
            guard data.count <= Self.dataMaximum else { return nil }
            // uhid_input2_req at 4: size (u16), data[4096].
            Self.put(UInt32(12), into: &bytes, at: 0)
            Self.put(UInt16(data.count), into: &bytes, at: 4)
            bytes.replaceSubrange(6..<(6 + data.count), with: data)
        case .start, .stop, .open, .close, .output, .other:
            return nil
        }
        return bytes
    }

    /// Reads an event the kernel sent; `nil` when fewer than 4 bytes came.
    /// An `UHID_OUTPUT` whose size field exceeds 4096 or the bytes read is
    /// cut to what is there (hostile or not, a length is never trusted).
    ///
    /// - Parameter bytes: What one `read` of `/dev/uhid` returned.
    init?(decoding bytes: [UInt8]) {
        guard bytes.count >= 4 else { return nil }
        let type = Self.integer(bytes, at: 0, width: 4)
        switch type {
        case 1: self = .destroy
        case 2: self = .start
        case 3: self = .stop
        case 4: self = .open
        case 5: self = .close
        case 6:
            // uhid_output_req at 4: data[4096], size (4100), rtype (4102).
            guard bytes.count >= 4 + Self.dataMaximum + 3 else { return nil }
            let size = min(Int(Self.integer(bytes, at: 4 + Self.dataMaximum, width: 2)), Self.dataMaximum)
            self = .output(data: Array(bytes[4..<(4 + size)]), reportType: bytes[4 + Self.dataMaximum + 2])
        default: self = .other(type: type)
        }
    }

    /// A report from an `UHID_OUTPUT`'s data, without the report number:
    /// the FIDO descriptor declares no report ids, and hidraw then passes
    /// the host's write whole, its leading report number 0 included (65
    /// bytes). `nil` for any other shape, which no FIDO host writes.
    ///
    /// - Parameter data: The event's data.
    static func report(fromOutput data: [UInt8]) -> [UInt8]? {
        switch data.count {
        case 65 where data[0] == 0: Array(data.dropFirst())
        case 64: data
        default: nil
        }
    }

    // MARK: Little helpers (host byte order: every Linux Swift runs on is little-endian)

    private static func put<Integer: FixedWidthInteger>(_ value: Integer, into bytes: inout [UInt8], at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<(offset + $0.count), with: $0) }
    }

    private static func put(text: String, capacity: Int, into bytes: inout [UInt8], at offset: Int) {
        // NUL-terminated: at most capacity - 1 bytes of the name.
        let utf8 = Array(text.utf8.prefix(capacity - 1))
        bytes.replaceSubrange(offset..<(offset + utf8.count), with: utf8)
    }

    private static func integer(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt32 {
        (0..<width).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
