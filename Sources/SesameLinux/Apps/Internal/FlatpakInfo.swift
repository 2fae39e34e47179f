/// A Flatpak sandbox's `/.flatpak-info`: a GLib key file that flatpak
/// writes and mounts read-only into the sandbox, so the app inside cannot
/// change the id it names. Read as xdg-desktop-portal reads it: the
/// `Runtime` group's `name` when that group exists (a runtime run as an
/// app), else the `Application` group's.
enum FlatpakInfo {
    /// The most bytes read; flatpak's own files are a few kilobytes, and a
    /// bigger one is not flatpak's.
    static let maximumSize = 64 * 1024

    /// The app id the key file names.
    /// - Parameter bytes: The file's contents.
    /// - Returns: `nil` when the text is not a key file GLib would load
    ///   (not UTF-8, a NUL, a key before any group, a line that is neither
    ///   group, key nor comment), when the group has no `name` or names it
    ///   twice, or when the id is not a valid app id. Any doubt is no
    ///   identity: a Flatpak app must never be taken for another.
    static func appID(fromKeyFile bytes: [UInt8]) -> String? {
        guard bytes.count <= maximumSize, !bytes.contains(0),
              let text = String(validating: bytes, as: UTF8.self),
              let groups = keyFileGroups(text) else { return nil }
        let group = groups["Runtime"] ?? groups["Application"]
        guard let names = group?["name"], names.count == 1, let id = names.first, isValidAppID(id) else { return nil }
        return id
    }

    /// The groups of a key file, each key with every value it was given
    /// (a duplicate is kept, so that the caller can refuse it). Groups
    /// of the same name merge, as GLib merges them.
    static func keyFileGroups(_ text: String) -> [String: [String: [String]]]? {
        var groups: [String: [String: [String]]] = [:]
        var current: String?
        // Split on the byte, not on Characters: "\r\n" is one Character and
        // would join two lines.
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            // GLib drops leading whitespace before it looks at a line.
            let line = Array(Substring(rawLine).unicodeScalars.drop(while: { $0 == " " || $0 == "\t" }))
            guard let first = line.first, first != "#" else { continue }
            if first == "[" {
                guard line.count >= 3, line.last == "]" else { return nil }
                let name = line.dropFirst().dropLast()
                guard !name.contains(where: { $0 == "[" || $0 == "]" || $0.properties.generalCategory == .control }) else { return nil }
                let groupName = String(String.UnicodeScalarView(name))
                current = groupName
                if groups[groupName] == nil { groups[groupName] = [:] }
                continue
            }
            guard let group = current, let equals = line.firstIndex(of: "=") else { return nil }
            // The key loses trailing whitespace and the value leading whitespace, as in GLib.
            var key = line[..<equals]
            while let last = key.last, last == " " || last == "\t" { key = key.dropLast() }
            let value = line[(equals + 1)...].drop(while: { $0 == " " || $0 == "\t" })
            guard !key.isEmpty else { return nil }
            groups[group, default: [:]][String(String.UnicodeScalarView(key)), default: []]
                .append(String(String.UnicodeScalarView(value)))
        }
        return groups
    }

    /// Whether `id` is an app id as xdg-desktop-portal accepts one: 1 to
    /// 255 bytes of at least two `.`-separated non-empty elements of ASCII
    /// letters, digits and `_`, with `-` allowed only in the last element.
    /// Any such id is also a valid D-Bus name, and holds nothing to escape.
    static func isValidAppID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        for (index, element) in elements.enumerated() {
            guard !element.isEmpty else { return false }
            let last = index == elements.count - 1
            for byte in element where !isNameByte(byte, allowingDash: last) { return false }
        }
        return true
    }

    private static func isNameByte(_ byte: UInt8, allowingDash: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        case UInt8(ascii: "-"):
            return allowingDash
        default:
            return false
        }
    }
}
