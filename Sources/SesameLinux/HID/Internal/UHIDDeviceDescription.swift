/// What `UHID_CREATE2` tells the kernel about the virtual device.
struct UHIDDeviceDescription: Equatable {
    /// The HID device's name (at most 127 bytes are kept).
    var name: String
    /// Its physical location (`phys`), empty for a virtual device.
    var physical = ""
    /// Its unique id (`uniq`), such as a serial number.
    var unique = ""
    /// `BUS_USB` (3) or another of linux/input.h's bus types.
    var bus: UInt16
    /// The USB vendor id the host sees.
    var vendor: UInt32
    /// The USB product id the host sees.
    var product: UInt32
    /// The device's version number.
    var version: UInt32 = 0
    /// The HID country code (0: not localized).
    var country: UInt32 = 0
    /// The HID report descriptor (at most 4096 bytes).
    var reportDescriptor: [UInt8]
}
