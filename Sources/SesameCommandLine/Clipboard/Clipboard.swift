#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Sesame

/// The desktop clipboard, through `wl-copy`/`wl-paste` (Wayland) or
/// `xclip` (X11). The value always goes through a pipe, never argv.
struct Clipboard {
    enum Tool: String, CaseIterable {
        case wayland = "wl-copy"
        case x11 = "xclip"
    }

    let tool: Tool
    /// The tool's absolute path (`wl-copy` or `xclip`).
    let path: String

    /// How long a copied secret stays before it is cleared, unless
    /// `SESAME_CLIP_SECONDS` says otherwise.
    static let defaultSeconds = 45

    /// The clipboard of this session: Wayland when `WAYLAND_DISPLAY` is set
    /// and `wl-copy` is installed, else X11 when `DISPLAY` is set and `xclip`
    /// is installed.
    ///
    /// - Throws: ``CommandFailure`` (exit 7) naming what is missing.
    static func find(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CommandFailure) -> Clipboard {
        let wayland = environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } ?? false
        let x11 = environment["DISPLAY"].map { !$0.isEmpty } ?? false
        var missing: [String] = []
        if wayland {
            if let path = executable("wl-copy", environment: environment) { return Clipboard(tool: .wayland, path: path) }
            missing.append("WAYLAND_DISPLAY is set but wl-copy is not installed (package wl-clipboard)")
        }
        if x11 {
            if let path = executable("xclip", environment: environment) { return Clipboard(tool: .x11, path: path) }
            missing.append("DISPLAY is set but xclip is not installed (package xclip)")
        }
        if missing.isEmpty { missing.append("there is no display (neither WAYLAND_DISPLAY nor DISPLAY is set)") }
        throw CommandFailure(status: .notAvailable, message: "--clip cannot reach a clipboard: \(missing.joined(separator: "; ")); nothing was copied")
    }

    /// The tool named by `name` (as the clearing helper is told), at `path`.
    init?(name: String, path: String) {
        guard let tool = Tool(rawValue: name), path.hasPrefix("/") else { return nil }
        self.init(tool: tool, path: path)
    }

    private init(tool: Tool, path: String) {
        self.tool = tool
        self.path = path
    }

    /// `SESAME_CLIP_SECONDS` (1…86400), else 45.
    ///
    /// - Throws: ``CommandFailure`` (exit 2) for anything else: a typo must
    ///   not leave a secret on the clipboard for good.
    static func clearingDelay(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CommandFailure) -> Int {
        guard let text = environment["SESAME_CLIP_SECONDS"], !text.isEmpty else { return defaultSeconds }
        guard let seconds = Int(text), (1...86_400).contains(seconds) else {
            throw CommandFailure(status: .usage, message: "SESAME_CLIP_SECONDS must be a whole number of seconds, 1 to 86400; nothing was copied")
        }
        return seconds
    }

    /// Puts `value` on the clipboard (the tool keeps serving it in the background).
    ///
    /// - Throws: ``CommandFailure`` (exit 7) when the tool fails, e.g. the display refuses it.
    func copy(_ value: SecretBytes) async throws {
        let arguments = switch tool {
        case .wayland: ["--type", "text/plain"]
        case .x11: ["-selection", "clipboard", "-in"]
        }
        let status = try await Spawn.run(path, arguments, input: value).status
        guard status == 0 else {
            throw CommandFailure(status: .notAvailable, message: "\(tool.rawValue) failed (exit \(status)); is the display reachable? Nothing was copied")
        }
    }

    /// What the clipboard holds now, up to `limit` bytes; `nil` when it
    /// cannot be read. The caller wipes it.
    func contents(limit: Int) async -> [UInt8]? {
        let (program, arguments) = switch tool {
        case .wayland: (Self.sibling(of: path, named: "wl-paste"), ["--no-newline"])
        case .x11: (path, ["-selection", "clipboard", "-out"])
        }
        guard let result = try? await Spawn.run(program, arguments, input: nil, capture: true, limit: limit), result.status == 0 else { return nil }
        return result.output
    }

    /// Empties the clipboard.
    func clear() async {
        switch tool {
        case .wayland: _ = try? await Spawn.run(path, ["--clear"], input: nil)
        // xclip has no "clear": owning the selection with nothing in it is one.
        case .x11: _ = try? await Spawn.run(path, ["-selection", "clipboard", "-in"], input: SecretBytes([]))
        }
    }

    private static func executable(_ name: String, environment: [String: String]) -> String? {
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 && $0.hasPrefix("/") }
    }

    private static func sibling(of path: String, named name: String) -> String {
        String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) + "/" + name
    }
}

extension Clipboard {
    /// Copies `value`, then leaves a detached `sesame clipboard-clear` that
    /// empties the clipboard after `seconds` if it still holds `value`.
    ///
    /// - Throws: ``CommandFailure`` (exit 7) when the value cannot be copied
    ///   or the helper cannot be started (then the clipboard is emptied again).
    func copy(_ value: SecretBytes, clearingAfter seconds: Int) async throws {
        try await copy(value)
        do {
            let sesame = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
            try await ProcessStart.detached(sesame, ["clipboard-clear", "--after", "\(seconds)", "--tool", tool.rawValue, "--path", path],
                                            input: value)
        } catch {
            // Never leave a secret on the clipboard with nothing to clear it.
            await clear()
            throw error
        }
    }
}
