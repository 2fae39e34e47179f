#if os(Linux)
import Sesame
import SesameLinux
import SesameSecretService
import Dispatch
import Glibc

/// `sesame import --from-secret-service`: copies every item of the Secret
/// Service provider on the session bus (gnome-keyring, KWallet's bridge,
/// KeePassXC) into the vault's Secret Service view. The source is only read.
/// What is copied, replaced or kept is the library's
/// (`SecretServiceImporter`, `SecretServiceImportAction`, SPEC D11); this
/// opens the vault, refuses to import Sesame into itself and reports.
struct SecretServiceImport {
    var options: VaultOptions
    var address: String
    var json: Bool

    func run() async throws {
        Self.fixMemoryMapThreshold()
        let machine = try options.machine()
        let vault = try await options.open(machine)
        let context = options.context(machine)
        if options.passwordFD != nil {
            _ = context.setCredential(try await options.applicationPassword(machine), type: .applicationPassword)
        }
        // Sesame serving this very vault: its collection paths end in the
        // vault's own collection identifiers (64 random bits each), so a
        // match cannot be a coincidence. Importing would only replace every
        // item by itself; another Sesame vault on the bus remains importable.
        let ours = Set(try await vault.collections.list().map(\.id))
        let paths: [String]
        do {
            paths = try await SecretServiceSource.collectionPaths(address: address)
        } catch {
            throw CommandFailure(status: .notAvailable, message: "no Secret Service provider answered on the session bus: \(error.description.escapingControlCharacters())")
        }
        if paths.contains(where: { ours.contains(SecretServiceSourceCollection.identifier(ofPath: $0)) }) {
            throw CommandFailure(status: .usage, message: """
                the Secret Service on the bus is Sesame serving this vault; stop `sesame secret-service`, \
                start the provider to import from (gnome-keyring, KeePassXC…), and run the import again
                """)
        }
        let copier = SecretServiceImporter(vault: vault, context: context)
        let source: [SecretServiceSourceCollection]
        do {
            source = try await SecretServiceSource.read(address: address, interactive: !options.noInteraction) { collection, item in
                // The bus thread waits while the item is stored: one secret in memory at a time.
                let done = DispatchSemaphore(value: 0)
                Task {
                    await copier.copy(item, of: collection)
                    done.signal()
                }
                done.wait()
            }
        } catch {
            throw CommandFailure(status: .notAvailable, message: "no Secret Service provider answered on the session bus: \(error.description.escapingControlCharacters())")
        }
        let document = await copier.report(of: source)
        if json {
            print(JSONOutput.encode(document))
        } else {
            StandardError.write(Self.lines(document).joined(separator: "\n") + "\n")
        }
    }

    /// Secrets of megabytes are copied several times on their way (the bus
    /// message, the sealed row, SQLite's statement). glibc raises its mmap
    /// threshold past each large block freed and then keeps such blocks in
    /// its heaps, so every item would leave its copies behind (measured: five
    /// more 10 MiB items, +70 MiB at peak). A fixed threshold (glibc's
    /// `mallopt(M_MMAP_THRESHOLD, 256 KiB)`) maps them afresh and returns
    /// them: the peak then stays that of one item. Looked up at run time: not
    /// every C library has it, and then nothing changes.
    private static func fixMemoryMapThreshold() {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in glibc's <malloc.h>
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, 256 << 10)
    }

    /// The text report; outside text (labels, paths, reasons quoting them) escaped (SPEC D9).
    static func lines(_ document: SecretServiceImportReport) -> [String] {
        func plural(_ count: Int) -> String { "\(count) item\(count == 1 ? "" : "s")" }
        var lines = ["Copied \(plural(document.copied)) (\(document.replaced) replacing an earlier copy); kept \(plural(document.kept)) "
                     + "already protected in the vault; skipped \(plural(document.skipped))."]
        for collection in document.collections {
            lines.append("Collection \"\(collection.label.escapingControlCharacters())\": copied \(collection.copied)"
                         + " (\(collection.replaced) replaced), kept \(collection.kept.count), skipped \(collection.skipped.count)")
            lines += (collection.kept + collection.skipped).map {
                "  \"\($0.label.escapingControlCharacters())\" (\($0.path.escapingControlCharacters())): \($0.reason.escapingControlCharacters())"
            }
        }
        return lines
    }
}
#endif
