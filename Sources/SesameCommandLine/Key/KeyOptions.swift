import ArgumentParser
import Sesame

/// The key a command is about: NAME within a service.
struct KeyOptions: ParsableArguments {
    @Argument(help: "The key's name.")
    var name: String

    @Option(help: "The service the key belongs to.")
    var service = ItemOptions.defaultService

    func validate() throws {
        if name.isEmpty { throw ValidationError("NAME must not be empty") }
        if service.isEmpty { throw ValidationError("--service must not be empty") }
    }

    /// The key's attributes and public key, or exit 3. Never prompts.
    func find(in vault: Vault) async throws -> VaultKey {
        do throws(VaultError) {
            return try await vault.keys.key(service: service, name: name)
        } catch where error.status == .itemNotFound {
            throw notFound
        } catch {
            throw CommandFailure(error)
        }
    }

    var notFound: CommandFailure { CommandFailure(status: .notFound, message: "no key \(name) in service \(service)") }

    /// Opens the vault, finds the key, and runs `body` with a context that
    /// carries the application password when the key needs one; a login
    /// password from `--password-fd` that PAM refused exits 4.
    func use<Result>(
        _ options: VaultOptions, _ body: (Vault, VaultKey, AuthenticationContext) async throws -> Result
    ) async throws -> Result {
        let machine = try options.machine()
        let vault = try await options.open(machine)
        let key = try await find(in: vault)
        let context = options.context(machine)
        try await options.supplyPassword(for: key.accessControl, machine: machine, on: context)
        do {
            return try await body(vault, key, context)
        } catch VaultError.itemNotFound {
            throw notFound
        } catch let error as VaultError where error.status == .userCanceled && machine.descriptorPresenter?.wasRejected == true {
            throw CommandFailure(status: .authenticationFailed, message: "the login password from --password-fd was not accepted")
        }
    }
}

/// ``KeyAlgorithm`` by its stored name: `ed25519`, `p256`, `p384`, `p521`,
/// `rsa-2048`, `rsa-3072`, `rsa-4096`, `x25519`, `p256-agreement`.
struct AlgorithmArgument: ExpressibleByArgument {
    var value: KeyAlgorithm

    init?(argument: String) {
        guard let value = KeyAlgorithm(rawValue: argument) else { return nil }
        self.value = value
    }

    static var allValueStrings: [String] { KeyAlgorithm.allCases.map(\.rawValue) }
}

/// How a public key is printed.
enum PublicKeyFormat: String, ExpressibleByArgument, CaseIterable {
    /// `ssh-ed25519 AAAA… comment` (signing keys).
    case openssh
    /// PEM SubjectPublicKeyInfo, as `openssl pkey -pubout`.
    case pem
    /// The raw key bytes (ECDSA: the X9.63 point; RSA: PKCS#1 DER), binary.
    case raw

    /// The format a key prints in by default: OpenSSH for signing keys,
    /// which OpenSSH can read, PEM for the others.
    static func standard(for algorithm: KeyAlgorithm) -> PublicKeyFormat {
        algorithm.purpose == .signing ? .openssh : .pem
    }

    /// The public key in this format.
    func render(_ key: VaultKey) throws -> [UInt8] {
        switch self {
        case .openssh: Array((try key.publicKey.openSSHRepresentation(comment: key.label ?? key.name) + "\n").utf8)
        case .pem: Array(key.publicKey.pemRepresentation.utf8)
        case .raw: key.publicKey.rawRepresentation
        }
    }
}

/// `--access` for keys: flags as for items, or `none`.
enum KeyAccessArgument {
    /// The default: a fingerprint or the login password for every use.
    static let standard = "user-presence"

    static func parse(_ text: String) throws -> AccessControl {
        text == "none" ? Vault.noAccessControl : try AccessArgument.parse(text)
    }
}
