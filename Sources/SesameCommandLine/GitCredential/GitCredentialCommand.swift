import ArgumentParser
import Sesame
import SesameSecretsInUse
#if os(Linux)
import SesameLinux
#endif

/// `sesame git-credential get|store|erase`: a git credential helper
/// (gitcredentials(7)) keeping credentials in the vault.
struct GitCredentialCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-credential",
        _superCommandName: SesameCommand.name,
        abstract: "Be git's credential helper: get, store and erase git's passwords in the vault.",
        discussion: """
            Set up with `git config --global credential.helper sesame` (runs git-credential-sesame) or \
            `git config --global credential.helper '!sesame git-credential'`. git writes key=value lines \
            to standard input and reads the answer of `get` from standard output, so there is no --json. \
            One item per credential in --service, named protocol://username@host[/path] (the path only \
            with credential.useHttpPath). `get` without username= answers with the most recently stored \
            user, never with an expired password (password_expiry_utc), and prints nothing when nothing \
            matches. `erase` with password= erases only a credential with that password. Other \
            operations are ignored (exit 0), as are attributes it does not know.
            """
    )

    @Argument(help: ArgumentHelp("get, store or erase (git passes it).", valueName: "operation"))
    var operation: String

    @Option(help: "The service the credentials are stored under.")
    var service = "git"

    @Option(help: ArgumentHelp("Who may read a stored credential back, as `put --access`; none by default, so git runs without a prompt.", valueName: "flags"))
    var access: String?

    @OptionGroup var options: VaultOptions

    func validate() throws {
        if service.isEmpty { throw ValidationError("--service must not be empty") }
        if let access { _ = try AccessArgument.parse(access) }
        try options.requireStandardInputFree(for: "git's request")
    }

    func run() async throws {
        // An operation from a newer git: the protocol asks helpers to ignore it.
        guard ["get", "store", "erase"].contains(operation) else { return }
        try await reporting(json: false) {
            let request = try GitCredentialProtocol.read()
            // No protocol, or no host (a path alone only for cert): a query for every host.
            guard request.isSpecific else {
                throw CommandFailure(status: .usage, message: "git-credential: the input needs protocol= and host= (path= alone only for protocol=cert); nothing was done")
            }
            let machine = try options.machine()
            let vault = try await options.open(machine)
            let context = options.context(machine)
            switch operation {
            case "get":
                try await supplyPassword(answering: request, vault: vault, machine: machine, context: context)
                guard let found = try await vault.gitCredential(
                    answering: request, service: service, operationPrompt: "Give git the password for \(location(request))", context: context)
                else { return }
                try GitCredentialProtocol.write(found)
            case "store":
                guard request.username != nil, request.password != nil else {
                    throw CommandFailure(status: .usage, message: "git-credential store needs username= and password=; nothing was stored")
                }
                let control = try access.map(AccessArgument.parse) ?? Vault.noAccessControl
                try await options.supplyPassword(for: control, machine: machine, on: context)
                try await vault.storeGitCredential(request, service: service, accessControl: control, context: context)
            default:
                if request.password != nil {
                    try await supplyPassword(answering: request, vault: vault, machine: machine, context: context)
                }
                try await vault.eraseGitCredentials(
                    answering: request, service: service, operationPrompt: "Check the refused password for \(location(request))", context: context)
            }
        }
    }

    /// Asks for the application password once when a credential that may
    /// answer is protected by one (it is read before anything is answered).
    private func supplyPassword(answering request: GitCredential, vault: Vault, machine: Machine, context: AuthenticationContext) async throws {
        let protected = try await vault.items.list(service: service).contains { item in
            item.accessControl.flags.contains(.applicationPassword)
                && GitCredential(itemName: item.account).map(request.isAnswered(by:)) == true
        }
        if protected { try await options.supplyPassword(for: .applicationPassword, machine: machine, on: context) }
    }

    /// `https://example.com/repo.git`, for prompts.
    private func location(_ request: GitCredential) -> String {
        "\(request.protocol ?? "")://\(request.host ?? "")" + (request.path.map { "/" + $0 } ?? "")
    }
}
