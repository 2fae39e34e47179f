import ArgumentParser

/// Parses a command line with only the tree of the subcommand it names.
///
/// `SesameCommand.parseAsRoot` builds the whole command tree and reflects
/// every command's arguments (for `--generate-completion-script`) before it
/// looks at the first argument: a quarter of a `sesame get`
/// (docs/PERFORMANCE.md, "Process start"). The first argument names the
/// subcommand; its own parse then sees the rest. The subcommands name
/// `sesame` as their super-command, so that parse does not look for a
/// completion-script request either (a second reflection, on
/// ArgumentParser's completion commands); the root's parse answers it.
///
/// That parse is trusted only when it gives one of the subcommand's own
/// commands: the root has no options or arguments of its own, and neither
/// has a command that only groups others, so it decodes the same values the
/// root's parse would. Everything else (help, `--version`, completions,
/// usage errors) is parsed again from the root, whose messages name the
/// command's whole path ("sesame get").
enum SubcommandDispatch {
    /// The named subcommand's own parse of the arguments after its name, or
    /// `nil` when the first argument names none of `commands` (the root's
    /// subcommands) or that parse gives no command of that subcommand's.
    static func parse(_ arguments: [String], among commands: [any ParsableCommand.Type]) -> (any ParsableCommand)? {
        guard let (command, rest) = route(arguments, among: commands),
              let parsed = try? command.parseAsRoot(rest),
              // A help request parses to ArgumentParser's help command, which
              // would name the subcommand alone ("USAGE: get"): the root says it.
              command == type(of: parsed) || descends(type(of: parsed), among: command.configuration.subcommands)
        else { return nil }
        return parsed
    }

    /// Whether `command` is one of `commands` or their subcommands, at any depth.
    private static func descends(_ command: any ParsableCommand.Type, among commands: [any ParsableCommand.Type]) -> Bool {
        commands.contains { $0 == command || descends(command, among: $0.configuration.subcommands) }
    }

    /// The subcommand the first argument names among `commands`, with the
    /// arguments after it; `nil` when it names none. One level is enough: a
    /// group's tree is its subcommands' configurations, built without reflection.
    static func route(
        _ arguments: [String], among commands: [any ParsableCommand.Type]
    ) -> (any ParsableCommand.Type, [String])? {
        guard let first = arguments.first, let command = commands.first(where: { named($0, first) }) else { return nil }
        return (command, Array(arguments.dropFirst()))
    }

    /// Whether `word` is the command's name or one of its aliases, as
    /// ArgumentParser matches a subcommand.
    private static func named(_ command: any ParsableCommand.Type, _ word: String) -> Bool {
        command._commandName == word || command.configuration.aliases.contains(word)
    }
}
