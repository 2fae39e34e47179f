/// What a process's `/proc/PID/cgroup` says about the app it runs as: a
/// snap (snapd puts each snap's processes in a `snap.NAME.…` unit or
/// freezer group) or a desktop app unit (desktops start apps in
/// `app-…` units, systemd.io/DESKTOP_ENVIRONMENTS). Cgroup names are
/// chosen by whoever may create cgroups there, which includes the user's
/// own unconfined processes: what this finds gates honest apps and names
/// them; it proves nothing against code running as the user.
enum CgroupApp {
    enum Finding: Equatable {
        /// The snap's name (with its `_INSTANCE` key, for a parallel install).
        case snap(String)
        /// The app id of the systemd app unit.
        case appUnit(String)
        /// Neither: the executable names the app.
        case neither
        /// Not the kernel's format, contradictory, or an invalid snap name:
        /// no identity at all rather than a wrong one.
        case unreadable
    }

    /// The hierarchy lines of a cgroup file: `ID:CONTROLLERS:PATH`.
    struct Line: Equatable {
        var controllers: String
        var path: String
    }

    /// The longest unit name systemd allows.
    static let maximumUnitNameLength = 255

    /// Finds the snap or app unit in a cgroup file's text.
    static func finding(inCgroupFile bytes: [UInt8]) -> Finding {
        guard let lines = lines(bytes) else { return .unreadable }
        // The freezer, systemd and unified hierarchies are the ones snapd
        // and systemd name their groups in (as xdg-desktop-portal reads them).
        let snapLines = lines.filter { ["", "name=systemd", "freezer"].contains($0.controllers) }
        var snaps: Set<String> = []
        for line in snapLines {
            for element in line.path.split(separator: "/") where element.hasPrefix("snap.") {
                let name = element.dropFirst("snap.".count).prefix(while: { $0 != "." })
                guard isValidSnapName(name) else { return .unreadable }
                snaps.insert(String(name))
            }
        }
        if snaps.count > 1 { return .unreadable }
        if let snap = snaps.first { return .snap(snap) }
        let unitLine = lines.first { $0.controllers.isEmpty } ?? lines.first { $0.controllers == "name=systemd" }
        guard let last = unitLine?.path.split(separator: "/").last, let id = appID(ofUnit: String(last)) else { return .neither }
        return .appUnit(id)
    }

    /// The lines of a cgroup file; `nil` unless every line is the kernel's
    /// `ID:CONTROLLERS:PATH` with a decimal id seen once and an absolute
    /// path. A cgroup's name may hold a newline, which would otherwise let
    /// a group named by a process add a line of its choosing.
    static func lines(_ bytes: [UInt8]) -> [Line]? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        var rows = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if rows.last?.isEmpty == true { rows.removeLast() }
        var seen: Set<Substring> = []
        var lines: [Line] = []
        for row in rows {
            let parts = Substring(row).split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty, parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  seen.insert(parts[0]).inserted, parts[2].hasPrefix("/") else { return nil }
            lines.append(Line(controllers: String(parts[1]), path: String(parts[2])))
        }
        return lines.isEmpty ? nil : lines
    }

    /// Whether `name` is a snap name as snapd allows it: lowercase ASCII
    /// letters, digits and single inner hyphens, at least one letter, at
    /// most 40 characters; then an optional `_KEY` instance key of 1 to 10
    /// lowercase letters and digits.
    static func isValidSnapName<S: StringProtocol>(_ name: S) -> Bool {
        let parts = name.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
        let snap = Array(parts[0].utf8)
        guard (1...40).contains(snap.count), snap.first != UInt8(ascii: "-"), snap.last != UInt8(ascii: "-"),
              snap.contains(where: { (0x61...0x7A).contains($0) }) else { return false }
        for (index, byte) in snap.enumerated() {
            let lowerOrDigit = (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            guard lowerOrDigit || (byte == UInt8(ascii: "-") && snap[index - 1] != UInt8(ascii: "-")) else { return false }
        }
        guard parts.count == 2 else { return true }
        let key = Array(parts[1].utf8)
        return (1...10).contains(key.count) && key.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// The app id of a desktop app unit, read as xdg-desktop-portal reads
    /// it: `app[-LAUNCHER]-APPID-RANDOM.scope`, or
    /// `app[-LAUNCHER]-APPID[@RANDOM].service` (and the older
    /// `…-APPID-autostart.service`), then `\xNN` escapes undone.
    /// - Returns: `nil` for any other unit, or an id that is empty, not
    ///   UTF-8, or holds a control character or `/`.
    static func appID(ofUnit unit: String) -> String? {
        guard unit.utf8.count <= maximumUnitNameLength, unit.hasPrefix("app-") else { return nil }
        let rest = unit.dropFirst("app-".count)
        let escaped: Substring?
        if rest.hasSuffix(".scope") {
            escaped = afterLauncher(rest.dropLast(".scope".count), scopeID)
        } else if rest.hasSuffix(".service") {
            escaped = afterLauncher(rest.dropLast(".service".count), serviceID)
        } else {
            escaped = nil
        }
        guard let escaped, let id = unescapeUnitName(escaped), !id.isEmpty,
              !id.contains("/"), !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return id
    }

    /// Tries the name with its launcher prefix taken off first (an
    /// alphanumeric run and `-`), then whole: the portal's pattern makes
    /// the launcher optional and greedy.
    private static func afterLauncher(_ body: Substring, _ id: (Substring) -> Substring?) -> Substring? {
        let run = body.prefix(while: isAlphanumeric)
        if !run.isEmpty, body.dropFirst(run.count).first == "-", let found = id(body.dropFirst(run.count + 1)) {
            return found
        }
        return id(body)
    }

    /// `APPID-RANDOM`: RANDOM is alphanumeric, so the id ends at the last `-`.
    private static func scopeID(_ text: Substring) -> Substring? {
        guard let dash = text.lastIndex(of: "-"), dash > text.startIndex,
              text[text.index(after: dash)...].allSatisfy(isAlphanumeric) else { return nil }
        return text[..<dash]
    }

    /// `APPID`, `APPID@RANDOM` or `APPID-autostart`: the shortest id
    /// after which one of those endings is all that is left.
    private static func serviceID(_ text: Substring) -> Substring? {
        guard !text.isEmpty else { return nil }
        var end = text.index(after: text.startIndex)
        while true {
            let tail = text[end...]
            if tail.isEmpty || tail == "-autostart" || (tail.first == "@" && tail.dropFirst().allSatisfy(isAlphanumeric)) {
                return text[..<end]
            }
            end = text.index(after: end)
        }
    }

    private static func isAlphanumeric(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber)
    }

    /// Undoes systemd's unit name escaping (`\xNN` for a byte); any other
    /// backslash stays as it is, as systemd's relaxed unescaping keeps it.
    /// - Returns: `nil` when the bytes are not UTF-8.
    static func unescapeUnitName<S: StringProtocol>(_ text: S) -> String? {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "x"),
               let high = hexValue(bytes[index + 2]), let low = hexValue(bytes[index + 3]) {
                out.append(high << 4 | low)
                index += 4
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}
