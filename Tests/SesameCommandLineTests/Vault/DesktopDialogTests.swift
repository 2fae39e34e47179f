import Foundation
import SesameLinuxTesting
import Testing

/// `sesame` started without a terminal in a graphical session (a desktop
/// shortcut) asks the owner through pinentry's dialog; without a display it
/// fails at once (exit 10), as before.
@Suite("sesame on a desktop without a terminal: pinentry's dialog")
struct DesktopDialogTests {
    /// A pinentry that records its commands and answers GETPIN with the
    /// vault passcode, as the owner typing it in the dialog would.
    private static let pinentry = #"""
        #!/bin/sh
        echo "OK Pleased to meet you"
        while read -r line; do
          echo "$line" >> "$PINENTRY_LOG"
          case "$line" in
            GETPIN*) printf 'D %s\nOK\n' "$(cat "$PASSCODE_FILE")" ;;
            BYE*) echo OK; exit 0 ;;
            *) echo OK ;;
          esac
        done
        """#

    @Test("SPEC A5: with DISPLAY set, the vault passcode is asked in pinentry's dialog, which names it; without it, exit 10 and no dialog")
    func vaultPasscodeInTheDialog() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let created = try await home.sesame(["init", "--passcode-only", "--scrypt-log2n", "10", "--passcode-fd", "3", "--no-interaction"],
                                            secret: VaultHome.passcode)
        try #require(created.status == 0, "\(created.stderr)")
        let program = home.file("pinentry")
        try ExecutableScript.write(Self.pinentry, to: program, mode: 0o700)
        let dialog = ["PINENTRY": program, "PINENTRY_LOG": home.file("pinentry.log"),
                      "PASSCODE_FILE": home.secretFile(VaultHome.passcode).replacingOccurrences(of: "\n", with: "")]

        let withoutDisplay = try await SesameBinary.run(["ls"], environment: home.environment.merging(dialog) { $1 })
        #expect(withoutDisplay.status == 10, "\(withoutDisplay.stderr)")
        #expect(!home.exists("pinentry.log"), "no display: no dialog")

        let onDesktop = try await SesameBinary.run(["ls"], environment: home.environment.merging(dialog) { $1 }.merging(["DISPLAY": ":99"]) { $1 })
        #expect(onDesktop.status == 0, "\(onDesktop.stderr)")
        let log = try String(contentsOfFile: home.file("pinentry.log"), encoding: .utf8)
        // The dialog names the secret in the glossary's words (issue 47).
        #expect(log.contains("SETDESC Enter your vault passcode.") && log.contains("SETPROMPT Vault passcode:") && log.contains("GETPIN"), "\(log)")
    }

    @Test("SPEC A3, A10: a pinentry that cannot show its dialog (Inappropriate ioctl for device) is exit 10, nobody asked, never 5 (cancelled)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pinentry-curses"), "needs pinentry-curses"))
    func pinentryWithoutTerminal() async throws {
        let home = try VaultHome()
        defer { home.remove() }
        let created = try await home.sesame(["init", "--passcode-only", "--scrypt-log2n", "10", "--passcode-fd", "3", "--no-interaction"],
                                            secret: VaultHome.passcode)
        try #require(created.status == 0, "\(created.stderr)")
        // A text pinentry chosen on a desktop, started where it has no terminal: setsid leaves sesame none either.
        let environment = home.environment.merging(["PINENTRY": "/usr/bin/pinentry-curses", "DISPLAY": ":99"]) { $1 }
        let listed = try await SesameBinary.run(["--wait", SesameBinary.url.path, "ls"], environment: environment, stdin: Data(),
                                                executable: URL(fileURLWithPath: "/usr/bin/setsid"))
        #expect(listed.status == 10, "\(listed.stderr)")
        #expect(listed.stderr.contains("nobody could be asked") && listed.stderr.contains("Inappropriate ioctl for device")
                && !listed.stderr.contains("cancelled"), "\(listed.stderr)")
    }
}
