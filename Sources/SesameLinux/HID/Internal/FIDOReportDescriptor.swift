/// The HID report descriptor of a FIDO device (CTAP 2.1 §11.2.8.1): usage
/// page FIDO Alliance (0xF1D0), usage CTAPHID (0x01), one application
/// collection with a 64-byte input report (usage 0x20, "input report data")
/// and a 64-byte output report (usage 0x21), and no report ids. Browsers
/// and libfido2 find FIDO devices by this usage page, and systemd's
/// `fido_id` by it tags the hidraw node as a security token for the
/// logged-in user.
enum FIDOReportDescriptor {
    static let bytes: [UInt8] = [
        0x06, 0xD0, 0xF1, // Usage Page (FIDO Alliance)
        0x09, 0x01, // Usage (CTAPHID)
        0xA1, 0x01, // Collection (Application)
        0x09, 0x20, //   Usage (Input Report Data)
        0x15, 0x00, //   Logical Minimum (0)
        0x26, 0xFF, 0x00, //   Logical Maximum (255)
        0x75, 0x08, //   Report Size (8)
        0x95, 0x40, //   Report Count (64)
        0x81, 0x02, //   Input (Data, Variable, Absolute)
        0x09, 0x21, //   Usage (Output Report Data)
        0x15, 0x00, //   Logical Minimum (0)
        0x26, 0xFF, 0x00, //   Logical Maximum (255)
        0x75, 0x08, //   Report Size (8)
        0x95, 0x40, //   Report Count (64)
        0x91, 0x02, //   Output (Data, Variable, Absolute)
        0xC0, // End Collection
    ]
}
