#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sesame

extension CommandFailure {
    /// Maps a failure to write an export or a rendered template to its
    /// message and exit code: a directory is a usage error (2), the rest
    /// fail (1).
    init(_ failure: PrivateFile.OutputFailure) {
        switch failure {
        case .directory(let path):
            self.init(status: .usage, message: "\(path) is a directory")
        case .exists(let path):
            self.init(status: .failure, message: "\(path) exists; sesame never overwrites it without --force")
        case .systemCall(let step, let path, let code):
            let doing = switch step {
            case .create: "cannot create"
            case .setMode: "cannot set the mode of"
            case .write: "cannot write to"
            case .flush: "cannot flush"
            case .replace: "cannot replace"
            }
            self.init(status: .failure, message: "\(doing) \(path): \(String(cString: strerror(code)))")
        }
    }
}
