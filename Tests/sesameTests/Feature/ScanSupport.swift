import Foundation
import SesameTesting

extension FprintdHarness {
    /// Waits until a `sesame` in `session` is verifying: a retry hint sent
    /// to the reader shows on its terminal. The virtual reader drops
    /// commands that arrive while it is being opened, so the hint is sent
    /// again until one shows; a scan sent after that is not lost.
    func waitForScan(_ session: AuthenticateCommandTests.TerminalSession) async throws {
        try await session.waitForScreen("Touch the fingerprint reader")
        let hints = session.text.components(separatedBy: "not centred").count
        for _ in 0..<10 {
            try await retry(2)
            let deadline = Date().addingTimeInterval(2)
            while session.text.components(separatedBy: "not centred").count == hints, Date() < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            if session.text.components(separatedBy: "not centred").count > hints { return }
        }
        throw AuthenticateCommandTests.EnvironmentError("no retry hint shown: \(session.text)")
    }

    /// A harness with the owner's finger enrolled, and a home with a vault
    /// that talks to it.
    static func startWithVault() async throws -> (FprintdHarness, VaultHome) {
        let harness = try await FprintdHarness.start()
        do {
            try await harness.enrol(finger: "right-index-finger", scanID: "owner")
            let home = try VaultHome(systemBus: harness.systemBusAddress)
            try await home.createVault()
            return (harness, home)
        } catch {
            harness.stop()
            throw error
        }
    }
}

extension AuthenticateCommandTests.TerminalSession {
    /// Types `secret` and Return into a secret prompt once it masks input.
    ///
    /// The prompt is written before the terminal leaves echo mode, and
    /// switching modes discards what was typed ahead; so a probe key is sent
    /// until it comes back as a mask (`*`), then erased with Ctrl-U.
    func typeSecret(_ secret: String) async throws {
        let masks = { self.text.components(separatedBy: "*").count }
        let before = masks()
        for _ in 0..<100 {
            type("x")
            let deadline = Date().addingTimeInterval(0.2)
            while masks() == before, Date() < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            if masks() > before {
                type("\u{15}" + secret + "\r")
                return
            }
        }
        throw AuthenticateCommandTests.EnvironmentError("the secret prompt never masked input: \(text)")
    }
}
