import Foundation
import SesameLinuxTesting
import SesameTesting

extension TerminalSession {
    /// Waits until sesame's verify is running: a retry hint sent to the
    /// virtual reader shows on the terminal. The reader drops commands that
    /// arrive while fprintd is still opening it, so the hint is sent again
    /// until one comes through; a scan sent afterwards is never lost.
    func waitUntilScanning(_ harness: FprintdHarness) async throws {
        try await waitForScreen("Touch the fingerprint reader")
        let hints = text.components(separatedBy: "not centred").count
        for _ in 0..<10 {
            try await harness.retry(2)
            let deadline = Date().addingTimeInterval(2)
            while text.components(separatedBy: "not centred").count == hints, Date() < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            if text.components(separatedBy: "not centred").count > hints { return }
        }
        throw EnvironmentError("no retry hint shown: \(text)")
    }
}
