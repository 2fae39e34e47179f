import ArgumentParser
import Sesame
import SesameSecretsInUse

/// One `--env VAR=NAME`: the vault item NAME goes into the variable VAR.
struct EnvironmentBinding: Equatable {
    var variable: String
    var item: String

    /// Parses `VAR=NAME`; VAR as a shell would accept it, so that the
    /// command can use `$VAR`, and so that `=` or NUL cannot smuggle a second
    /// assignment in.
    static func parse(_ text: String) throws -> EnvironmentBinding {
        guard let equals = text.firstIndex(of: "=") else {
            throw ValidationError("--env \(text): expected VAR=NAME, e.g. --env TOKEN=api-token")
        }
        let variable = String(text[..<equals]), item = String(text[text.index(after: equals)...])
        guard isVariableName(variable) else {
            throw ValidationError("--env \(text): \"\(variable)\" is not a variable name (letters, digits and '_', not starting with a digit)")
        }
        guard !item.isEmpty else { throw ValidationError("--env \(text): the item NAME is empty") }
        return EnvironmentBinding(variable: variable, item: item)
    }

    static func isVariableName(_ name: String) -> Bool { EnvironmentFile.isVariableName(name) }

    /// Parses every binding, refusing the same variable twice: which value
    /// would win is not something a script should have to guess.
    static func parseAll(_ texts: [String]) throws -> [EnvironmentBinding] {
        let bindings = try texts.map(parse)
        var seen: Set<String> = []
        for binding in bindings where !seen.insert(binding.variable).inserted {
            throw ValidationError("--env \(binding.variable) is given twice")
        }
        return bindings
    }
}
