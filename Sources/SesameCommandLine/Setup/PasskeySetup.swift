/// `sesame setup passkey`: the passkey authenticator runs with every
/// graphical session, as a FIDO device browsers see.
struct PasskeySetup {
    let steps: SetupSteps

    static let unit = "sesame-passkey.service"

    func run(_ record: inout SetupRecord) async throws {
        // A unit that cannot create its device would only restart and fail: refused now, with the fix.
        if let problem = PasskeyDeviceAccess.problem() {
            throw CommandFailure(status: .notAvailable, message: "setup passkey: \(problem.detail), so browsers could not see the authenticator; fix: \(problem.fix)")
        }
        if let why = steps.whyUnitCannotRun(Self.unit) {
            steps.say(.passkey, "\(why): start this with your desktop session (its autostart settings), or run it in a terminal:")
            print("    sesame passkey serve")
            return
        }
        try await steps.enable(Self.unit, for: .passkey, record: &record, saying: "browsers see Sesame's FIDO device in this and every graphical session")
    }
}
