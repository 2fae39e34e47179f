/// A role `sesame setup` hands to Sesame for this user and `--undo` gives
/// back: its name, the units it runs, the step that sets it up, its undo and
/// the checks `sesame doctor` holds it to. Each role is one file that
/// conforms; ``SetupRoles/all`` is the one list `setup`, its argument and
/// `doctor` read, so a role missing from any of them cannot be written.
protocol SetupRole: Sendable {
    /// The word `sesame setup` takes and starts each of the role's lines
    /// with. It also names the role's record, so it never changes.
    var name: String { get }
    /// What setting the role up does, in a few words for `sesame setup --help`.
    var summary: String { get }
    /// Whether `sesame setup` with no role takes it over; a role that needs
    /// more than this user's own files is set up only when named.
    var isTakenOverByDefault: Bool { get }
    /// The systemd user units it runs: `doctor` wants each installed.
    var units: [UserUnit] { get }

    /// Sets the role up, printing each step through `steps` and recording in
    /// `record` what undoes it. Running it again changes nothing more.
    func setUp(_ steps: SetupSteps, record: inout SetupRecord) async throws

    /// Gives the role back: puts back what `record` says setup replaced.
    func undo(_ steps: SetupSteps, record: SetupRecord) async throws

    /// `sesame doctor`'s checks of the role: `failed` only where
    /// ``Doctor/isSetUp(_:)`` holds it to working.
    func checks(_ doctor: Doctor) async -> [DoctorCheck]
}

extension SetupRole {
    /// Most roles run no unit of their own.
    var units: [UserUnit] { [] }

    /// Most roles are given back by their record alone.
    func undo(_ steps: SetupSteps, record: SetupRecord) async throws {
        try await steps.replay(record)
        steps.say("undone")
    }
}
