#if os(Linux)
import Foundation
import Sesame
import SesameLinux
import SesameTesting
import Testing

/// The CLI's app passcode pad, driven through a real pseudo-terminal.
@Suite("TerminalPasscodePad", .serialized, .timeLimit(.minutes(1)))
struct TerminalPasscodePadTests {
    private let clock = ManualClock()
    private let store = InMemoryAppRecordStore()

    private func passcode() async throws -> AppPasscode {
        let passcode = AppPasscode(appIdentifier: "cli", store: store, cost: AppPasscodeCost(n: 1 << 8, r: 8, p: 1), clock: clock)
        if await passcode.currentState() != .set { try await passcode.set(SecretBytes(utf8: "2468")) }
        return passcode
    }

    /// Reads until `needle` appears after everything read so far has been seen.
    private func read(_ terminal: PseudoTerminal, until needle: String, seconds: Double = 20) async -> String {
        var shown = ""
        let deadline = Date().addingTimeInterval(seconds)
        while !shown.contains(needle) && Date() < deadline {
            shown += await terminal.read(until: needle, seconds: 1)
        }
        return shown
    }

    @Test("SPEC E3: masked entry; a wrong passcode shows the attempts left, the right one unlocks; the terminal is restored")
    func wrongThenRight() async throws {
        let terminal = try PseudoTerminal()
        let pad = try #require(TerminalPasscodePad(path: terminal.slavePath))
        let passcode = try await passcode()
        let unlock = Task { await pad.unlock(passcode, clock: clock) }
        _ = await read(terminal, until: "App passcode: ")
        await terminal.waitForRawMode()
        terminal.type("1357\r")
        let afterWrong = await read(terminal, until: "before a wait.")
        #expect(afterWrong.contains("****"))
        #expect(!afterWrong.contains("1357"))
        #expect(afterWrong.contains("Wrong passcode."))
        #expect(afterWrong.contains("4 attempts left before a wait."))
        await terminal.waitForRawMode()
        terminal.type("2468\r")
        #expect(await unlock.value == .accepted)
        let end = await read(terminal, until: "Unlocked.")
        #expect(!end.contains("2468"))
        #expect(terminal.echoes)
    }

    @Test("SPEC E3: during a delay the pad counts down, checks nothing, then asks again")
    func countdown() async throws {
        let passcode = try await passcode()
        for number in 0..<5 { _ = await passcode.verify(SecretBytes(utf8: "wrong-\(number)")) }
        let terminal = try PseudoTerminal()
        let pad = try #require(TerminalPasscodePad(path: terminal.slavePath, tick: .milliseconds(20)))
        let unlock = Task { await pad.unlock(passcode, clock: clock) }
        #expect(await read(terminal, until: "Try again in 1:00").contains("Too many wrong passcodes"))
        clock.advance(by: 45)
        _ = await read(terminal, until: "Try again in 0:15")
        terminal.type("2468\r")   // swallowed: nothing is checked during the delay
        clock.advance(by: 16)
        _ = await read(terminal, until: "App passcode: ")
        await terminal.waitForRawMode()
        terminal.type("2468\r")
        #expect(await unlock.value == .accepted)
        #expect(terminal.echoes)
    }

    @Test("SPEC E3: Ctrl-C cancels the entry and the countdown, and restores the terminal")
    func controlC() async throws {
        let terminal = try PseudoTerminal()
        let pad = try #require(TerminalPasscodePad(path: terminal.slavePath, tick: .milliseconds(20)))
        let passcode = try await passcode()
        let entry = Task { await pad.unlock(passcode, clock: clock) }
        _ = await read(terminal, until: "App passcode: ")
        await terminal.waitForRawMode()
        terminal.type("24\u{03}")
        #expect(await entry.value == .cancelled)
        #expect(terminal.echoes)

        for number in 0..<5 { _ = await passcode.verify(SecretBytes(utf8: "wrong-\(number)")) }
        let countdown = Task { await pad.unlock(passcode, clock: clock) }
        _ = await read(terminal, until: "Try again in")
        await terminal.waitForRawMode()
        terminal.type("\u{03}")
        #expect(await countdown.value == .cancelled)
        #expect(await read(terminal, until: "Cancelled.").contains("Cancelled."))
        #expect(terminal.echoes)
    }
}
#endif
