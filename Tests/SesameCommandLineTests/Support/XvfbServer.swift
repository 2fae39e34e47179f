import Foundation

/// A private X server (`Xvfb`) for the clipboard tests: a child `Process`
/// this test keeps and kills by pid. It picks a free display itself
/// (`-displayfd`), so parallel tests never share one.
final class XvfbServer: Sendable {
    let display: String
    private let process: Process

    private init(display: String, process: Process) {
        self.display = display
        self.process = process
    }

    static let path = "/usr/bin/Xvfb"

    /// Starts Xvfb and waits until it accepts connections (it writes its
    /// display number only then).
    ///
    /// - Throws: ``EnvironmentError`` when Xvfb is not installed (Debian
    ///   package xvfb) or does not start.
    static func start() async throws -> XvfbServer {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw EnvironmentError("Xvfb is not installed (Debian package xvfb); the clipboard tests need an X server")
        }
        return try await withCheckedThrowingContinuation { continuation in
            // Reading the display number blocks: a thread of its own.
            Thread {
                continuation.resume(with: Result { try startBlocking() })
            }.start()
        }
    }

    private static func startBlocking() throws -> XvfbServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let number = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !number.isEmpty, Int(number) != nil else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw EnvironmentError("Xvfb did not start (it printed no display number)")
        }
        return XvfbServer(display: ":" + number, process: process)
    }

    /// Kills the server by pid and reaps it; xclip processes serving its
    /// clipboard end with their display.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
