import ArgumentParser
import Sesame

/// `sesame app`: which app made a Secret Service item and which other apps
/// its owner allowed (SPEC D13). An app is `flatpak:ID`, `snap:NAME`,
/// `systemd-unit:ID` or an executable's absolute path.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        _superCommandName: SesameCommand.name,
        abstract: "The app a Secret Service item belongs to, and the other apps allowed to use it.",
        discussion: """
            An item created through the Secret Service records the app that made it; another app that reads, \
            changes or deletes it is asked for first. APP is flatpak:ID, snap:NAME, systemd-unit:ID or an \
            executable's absolute path. Name the item as `sesame ls` lists it: NAME --service secret-service/ID. \
            An identity the asking program can forge (an executable path) sorts honest apps apart; it does not \
            stop code running as you.
            """,
        subcommands: [AppListCommand.self, AppAllowCommand.self, AppRemoveCommand.self, AppBindCommand.self]
    )
}

/// The item an `app` subcommand is about: a Secret Service item, as `ls` lists it.
struct AppItemOptions: ParsableArguments {
    @OptionGroup var item: ItemOptions
    @OptionGroup var options: VaultOpeningOptions

    /// The vault and the item's collection, or exit 2 for a service that is no collection's.
    func open() async throws -> (vault: Vault, collection: String) {
        guard let collection = VaultCollections.collection(ofService: item.service) else {
            throw CommandFailure(status: .usage, message: "only Secret Service items record apps: give --service secret-service/ID as `sesame ls` lists it")
        }
        let vault = try await options.open(try options.machine())
        return (vault, collection)
    }

    func notFound() -> CommandFailure {
        CommandFailure(status: .notFound, message: "no item \(item.name) in service \(item.service)")
    }

    /// Opens the vault and makes one change to the item, a missing item being exit 3.
    func change(_ body: (Vault, String) async throws(VaultError) -> Void) async throws {
        try await reporting(json: false) {
            let (vault, collection) = try await open()
            try await mapping { () async throws(VaultError) in try await body(vault, collection) }
        }
    }

    /// Runs a vault call, a missing item being exit 3.
    func mapping<Value>(_ body: () async throws(VaultError) -> Value) async throws -> Value {
        do throws(VaultError) {
            return try await body()
        } catch where error.status == .itemNotFound {
            throw notFound()
        } catch {
            throw CommandFailure(error)
        }
    }
}

/// An APP argument.
struct AppArgument: ExpressibleByArgument {
    let app: AppIdentity

    init?(argument: String) {
        guard let app = AppIdentity(token: argument) else { return nil }
        self.app = app
    }
}

/// `sesame app ls NAME --service S`: the item's app and the apps it allows.
struct AppListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls", abstract: "Show the app that made the item and the apps allowed to use it; never prompts.")

    @OptionGroup var target: AppItemOptions

    @Flag(help: "Print {\"app\", \"allowedApps\"} as JSON.")
    var json = false

    private struct Entry: Encodable {
        var app: String?
        var allowedApps: [String]
    }

    func run() async throws {
        try await reporting(json: json) {
            let (vault, collection) = try await target.open()
            let item = try await target.mapping { () async throws(VaultError) in try await vault.collections.item(target.item.name, inCollection: collection) }
            if json {
                print(JSONOutput.encode(Entry(app: item.app?.token, allowedApps: item.allowedApps.map(\.token))))
                return
            }
            // Outside text: escaped, one per line.
            print("made by: \(item.app.map { $0.token.escapingControlCharacters() } ?? "no app recorded (every app may use it)")")
            for app in item.allowedApps { print("allowed: \(app.token.escapingControlCharacters())") }
        }
    }
}

/// `sesame app allow NAME APP --service S`: the owner's "allow always", given ahead.
struct AppAllowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allow", abstract: "Let APP use the item without asking (at most 64 apps per item).")

    @OptionGroup var target: AppItemOptions
    @Argument(help: "The app: flatpak:ID, snap:NAME, systemd-unit:ID or /path/to/executable.")
    var app: AppArgument

    func run() async throws {
        try await target.change { vault, collection throws(VaultError) in
            try await vault.collections.allowApp(app.app, forItem: target.item.name, inCollection: collection)
        }
    }
}

/// `sesame app rm NAME APP --service S`: asks again before APP uses the item.
struct AppRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Stop allowing APP: it is asked for again.")

    @OptionGroup var target: AppItemOptions
    @Argument(help: "The app, as `sesame app ls` shows it.")
    var app: AppArgument

    func run() async throws {
        try await target.change { vault, collection throws(VaultError) in
            try await vault.collections.removeAllowedApp(app.app, fromItem: target.item.name, inCollection: collection)
        }
    }
}

/// `sesame app bind NAME APP --service S`: the item belongs to APP from now on.
struct AppBindCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bind", abstract: "Make APP the item's app (--none: no app, every app may use it).")

    @OptionGroup var target: AppItemOptions
    @Argument(help: "The app the item belongs to from now on.")
    var app: AppArgument?

    @Flag(help: "Record no app: every app may use the item, as before apps were recorded.")
    var none = false

    func validate() throws {
        if (app == nil) == !none { throw ValidationError("give APP or --none") }
    }

    func run() async throws {
        try await target.change { vault, collection throws(VaultError) in
            try await vault.collections.bindItem(target.item.name, inCollection: collection, to: app?.app)
        }
    }
}
