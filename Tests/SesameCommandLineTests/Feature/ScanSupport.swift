import Foundation
import SesameLinuxTesting
import SesameTesting

extension FprintdHarness {
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

extension TerminalSession {
    /// Types `secret` and Return into a secret prompt once it masks input.
    ///
    /// A probe key is sent until it comes back as a mask (`*`), then erased
    /// with Ctrl-U: proof that the prompt reads masked input before the
    /// secret is typed.
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
        throw EnvironmentError("the secret prompt never masked input: \(text)")
    }
}
