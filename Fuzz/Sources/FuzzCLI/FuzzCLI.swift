// libFuzzer target for `sesame`'s argument parsing: the very command tree the
// executable runs (SesameCommandLine), fed arbitrary argument lists.
//
// Each input is split at NUL bytes into arguments (decoded as UTF-8, invalid
// bytes replaced), and parsed as `sesame` would parse them, with every
// command's validate() (access flags, descriptors, --reuse ranges, run's
// VAR=NAME bindings …). Nothing is run. Parsing must either give a command or
// an error whose message and exit code can be produced: never a crash, a
// trap or a hang. An error must map to one of the exit codes sesame
// documents for parsing: 0 (help, version, completions) or 2 (usage; the
// command maps ArgumentParser's validation code 64 to 2 itself).
//
// `sesame` parses only the subcommand it runs (issue 24): that parse must
// give the very command the root's parse gives (every decoded value), or
// the same message and exit code.
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FuzzSupport
import SesameCommandLine

func fuzzCommandLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    let root = outcome(arguments, SesameCommand.parseAsRoot)
    if case .error(_, let code) = root {
        let documented: Set<Int32> = [ExitCode.success.rawValue, ExitCode.validationFailure.rawValue, 1]
        if !documented.contains(code) {
            fatalError("parsing \(arguments) failed with exit code \(code)")
        }
    }
    let dispatched = outcome(arguments, SesameCommand.parse(dispatching:))
    // The one deliberate difference: `help WORD` where WORD names nothing is
    // a usage error, where the root's parse prints its help and exits 0.
    if arguments.first == "help", arguments.count > 1, !arguments[1].hasPrefix("-"),
       case .error(let message, ExitCode.validationFailure.rawValue) = dispatched, message.contains("no command or help topic") {
        return 0
    }
    if dispatched != root {
        fatalError("parsing \(arguments) only as the subcommand gave \(dispatched), the root's parse \(root)")
    }
    return 0
}

/// What a parse gave: the command's type and every decoded value, or the
/// error's message and exit code.
enum Outcome: Equatable {
    case command(String)
    case error(String, Int32)
}

func outcome(_ arguments: [String], _ parse: ([String]) throws -> any ParsableCommand) -> Outcome {
    do {
        var text = ""
        dump(try parse(arguments), to: &text)
        return .command(text)
    } catch {
        _ = SesameCommand.message(for: error)
        return .error(SesameCommand.fullMessage(for: error, columns: 80), SesameCommand.exitCode(for: error).rawValue)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLineEntry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { fuzzCommandLine(data, size) }

@_cdecl("FuzzCLI_main")
public func fuzzCLIMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzCommandLine(data, size) }
}
