import ArgumentParser

/// The pages `sesame help <topic>` shows. Each topic is a hidden
/// subcommand whose discussion is the page, so ArgumentParser's own `help`
/// shows it and the generated man page and completions need nothing extra.
enum HelpTopic {
    /// The topic commands, for the root command's subcommand list.
    static let commands: [any ParsableCommand.Type] = [AccessFlagsTopic.self, ExitCodesTopic.self, SecurityTopic.self]

    /// One line per topic, for the root command's discussion.
    static let index = commands.map { command in
        "  sesame help \(command.configuration.commandName ?? "")\t\(command.configuration.abstract)"
    }.joined(separator: "\n")
}

/// Prints the topic's page when the topic is run as a command.
protocol HelpTopicCommand: ParsableCommand {}

extension HelpTopicCommand {
    func run() throws {
        print(Self.helpMessage(columns: 80))
    }
}
