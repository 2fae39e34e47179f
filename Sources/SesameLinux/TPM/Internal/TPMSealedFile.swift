#if os(Linux)
import Glibc
import Sesame

/// A file holding a sealed object's TPM2B_PUBLIC and TPM2B_PRIVATE: useless
/// without the TPM that sealed it, but still kept 0600 in a 0700 directory
/// (with a TPM-bound passcode, it is what a guess is tried against).
struct TPMSealedFile {
    /// Identifies the format; a version bump changes the last byte.
    static let magic = Array("sesame-tpm-sealed\u{1}".utf8)

    let file: PrivateFile

    init(path: String) { file = PrivateFile(path: path) }

    var path: String { file.path }

    /// The blobs, or `nil` when there is no file (nor its directory).
    func read() throws(TPMError) -> (public: [UInt8], private: [UInt8])? {
        guard PrivateFile.exists(file.directory) else { return nil }
        let bytes: [UInt8]
        do throws(PrivateFile.Failure) {
            try PrivateFile.requirePrivate(file.directory)
            guard let read = try file.read(limit: 16 * 1024) else { return nil }
            bytes = read
        } catch {
            throw Self.error(error)
        }
        guard bytes.starts(with: Self.magic),
              let (publicBlob, rest) = TPMWire.splitSized(bytes[Self.magic.count...]),
              let (privateBlob, end) = TPMWire.splitSized(rest), end.isEmpty else {
            throw .damaged(path: file.path)
        }
        return (publicBlob, privateBlob)
    }

    /// Writes the blobs unless a file is already there.
    ///
    /// - Returns: `false` when another process created the file first.
    func create(public publicBlob: [UInt8], private privateBlob: [UInt8]) throws(TPMError) -> Bool {
        do throws(PrivateFile.Failure) {
            try PrivateFile.createDirectories(file.directory)
            try PrivateFile.requirePrivate(file.directory)
            let temporary = PrivateFile(path: file.path + ".new-\(getpid())-\(UInt64.random(in: .min ... .max))")
            try temporary.create(Self.magic + publicBlob + privateBlob)
            defer { unlink(temporary.path) }
            // link() never replaces: a file another process linked first wins.
            if link(temporary.path, file.path) != 0 {
                if errno == EEXIST { return false }
                throw PrivateFile.Failure.systemCall("link", path: file.path, errno: errno)
            }
            return true
        } catch {
            throw Self.error(error)
        }
    }

    private static func error(_ failure: PrivateFile.Failure) -> TPMError {
        switch failure {
        case .tooLarge(let path): .damaged(path: path)
        case .insecurePermissions, .wrongOwner, .symbolicLink: .insecure(failure.description)
        case .systemCall: .failed(failure.description)
        }
    }
}
#endif
