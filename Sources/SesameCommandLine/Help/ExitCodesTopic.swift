import ArgumentParser

/// `sesame help exit-codes`: what each exit status means.
struct ExitCodesTopic: HelpTopicCommand {
    static let configuration = CommandConfiguration(
        commandName: "exit-codes",
        abstract: "What each exit status means (the same codes in --json errors).",
        usage: "sesame help exit-codes",
        discussion: ExitStatus.allCases.map { "  \($0.rawValue)\t\($0.meaning)" }.joined(separator: "\n") + """


            With --json, an error is printed on standard output as
              {"error": {"code": N, "status": "...", "message": "..."}}
            where code is the exit status. `sesame run` exits with its command's status once the command starts.
            """,
        shouldDisplay: false
    )
}
