#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A daemon's start (parsing arguments, opening the vault, deriving keys)
/// runs code that serving never runs again, and the statically linked
/// binary keeps every page of it resident: about 20 MB of the Secret
/// Service's 33 MB (docs/PERFORMANCE.md, "the installed binary, activation and memory"). Once serving, the
/// binary's code is handed back (`MADV_DONTNEED` on its `r-xp` mapping):
/// clean file pages, still in the page cache, and the ones serving needs
/// come back on first use as minor faults. Only the code: the read-only
/// data after it holds pointers the loader relocated (RELRO), which
/// dropping would reset to the file's bytes.
enum StartupPages {
    static func release() {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
        let executable = AgentFiles.executable
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "r-xp",
                  fields[5...].joined(separator: " ") == executable else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0], let start = UnsafeMutableRawPointer(bitPattern: bounds[0]) else { continue }
            _ = madvise(start, Int(bounds[1] - bounds[0]), MADV_DONTNEED)
        }
    }
}
