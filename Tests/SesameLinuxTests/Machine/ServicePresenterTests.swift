#if os(Linux)
import Foundation
import Glibc
import Sesame
import SesameLinux
import SesameLinuxTesting
import Testing

/// The prompts of `sesame ssh-agent` and `sesame secret-service`: pinentry
/// shows each prompt itself, so only the others get a desktop notification.
@Suite("LinuxMachine.servicePresenter")
struct ServicePresenterTests {
    /// A directory with an executable `pinentry`, for `PATH`.
    private static func pinentryDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pinentry-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try ExecutableScript.write("#!/bin/sh\necho 'OK Pleased to meet you'\n", to: "\(directory)/pinentry")
        return directory
    }

    @Test("G: In a graphical session pinentry asks, and is not wrapped in a notification (its dialog says it)")
    func pinentryNotNotified() throws {
        let environment = ["PATH": try Self.pinentryDirectory(), "DISPLAY": ":0", "SSH_ASKPASS": "/usr/bin/ssh-askpass",
                           "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]
        #expect(LinuxMachine.servicePresenter(terminal: nil, environment: environment) is PinentryPresenter)
    }

    @Test("G: Where no pinentry is chosen (SSH_ASKPASS without a display), the notification stays")
    func askpassNotified() throws {
        let environment = ["PATH": try Self.pinentryDirectory(), "SSH_ASKPASS": "/usr/bin/ssh-askpass",
                           "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]
        #expect(LinuxMachine.servicePresenter(terminal: nil, environment: environment) is NotifyingPresenter)
    }
}
#endif
