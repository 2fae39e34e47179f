#if os(Linux)
import Glibc

/// A Unix stream socket only its owner may reach: 0600 before it can be
/// reached, in a directory of mode 0700 that must be this user's alone, at its
/// path only once it listens, a stale socket of a dead server replaced and a
/// live one or any other file left alone. What connects is then told apart by the kernel's record of
/// its user (``peer(of:)``), never by what it says. A socket found already
/// served is trusted only as ``trustedServer(at:)`` allows: this user's
/// folder and file, this user's process of this very program.
///
/// The one home of that guarantee (ARCHITECTURE, "The security core") for
/// every socket Sesame serves: the SSH agent's and the passkey report socket.
package enum PrivateSocket {
    /// Why a socket cannot be served, in words that name the path.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Creates the socket at `path` and listens on it.
    ///
    /// - Parameters:
    ///   - path: The socket's path; its directory is created 0700.
    ///   - nonBlocking: Whether accepting must not block (a poll loop's).
    ///   - whileBound: Runs between binding and listening: tests widen that
    ///     window with it, to show that no client sees the socket then.
    /// - Returns: The listening descriptor (close-on-exec).
    /// - Throws: ``Failure``: a directory others can enter, a path too long,
    ///   a file that is not a socket, a server already listening, or the
    ///   system call that failed.
    package static func listen(at path: String, nonBlocking: Bool = false, whileBound: () -> Void = {}) throws(Failure) -> Int32 {
        try preparePrivateFolder(of: path)
        // Bound and listening under a name of its own first, then renamed into
        // place: a client that sees the path is never refused by a socket
        // not yet listening, and a stale socket is replaced in one step.
        let staging = "\(path).\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).new"
        guard staging.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw Failure(description: "\(path) is too long for a Unix socket (Sesame needs room to stage it beside the path)")
        }
        var status = stat()
        let stale = lstat(path, &status) == 0
        if stale {
            guard status.st_mode & S_IFMT == S_IFSOCK else { throw Failure(description: "\(path) exists and is not a socket; Sesame will not replace it") }
            if let live = connect(to: path) {
                Glibc.close(live)
                throw Failure(description: "a server is already listening on \(path)")
            }
        }
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let descriptor = socket(AF_UNIX, flags, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errorText())") }
        unlink(staging)
        // 0600 before it is reachable: the staging name sits in the 0700 folder, and
        // the mode is set before the path appears. (No umask: it is the whole
        // process's, and another thread's files would take it.)
        let bound = withAddress(staging) { bind(descriptor, $0, $1) }
        whileBound()
        guard bound == 0, chmod(staging, 0o600) == 0, Glibc.listen(descriptor, 16) == 0 else {
            let text = errorText()
            Glibc.close(descriptor)
            unlink(staging)
            throw Failure(description: "cannot listen on \(path): \(text)")
        }
        // Over a stale socket, a rename; onto a free path, a link, which fails
        // when another server took the path meanwhile instead of orphaning it.
        let placed = stale ? rename(staging, path) : link(staging, path)
        let placeError = errno
        unlink(staging)
        guard placed == 0 else {
            Glibc.close(descriptor)
            if placeError == EEXIST { throw Failure(description: "a server is already listening on \(path)") }
            throw Failure(description: "cannot listen on \(path): \(String(cString: strerror(placeError)))")
        }
        return descriptor
    }

    /// Creates the folder of `path` (0700, with missing parents) and fails
    /// unless it is a folder, not a link, this user's and closed to group and
    /// others: a folder another user made first (a guessable name in `/tmp`)
    /// would let them swap or serve the socket, or hold its lock.
    ///
    /// - Throws: ``Failure`` naming the folder and what is wrong with it.
    package static func preparePrivateFolder(of path: String) throws(Failure) {
        let directory = PrivateFile.parentDirectory(of: path)
        do {
            try PrivateFile.createDirectories(directory)
        } catch {
            throw Failure(description: "\(String(describing: error).escapingControlCharacters())")
        }
        let shown = directory.escapingControlCharacters()
        var info = stat()
        guard lstat(directory, &info) == 0 else { throw Failure(description: "\(shown): \(errorText())") }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: throw Failure(description: "\(shown) is a symbolic link, not a folder: refusing to use it for a socket")
        default: throw Failure(description: "\(shown) is not a folder: refusing to use it for a socket")
        }
        guard info.st_uid == geteuid() else {
            throw Failure(description: "\(shown) belongs to uid \(info.st_uid), not you (uid \(geteuid())): refusing to use it")
        }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else {
            throw Failure(description: "\(shown) is open to other users (mode \(String(mode, radix: 8))): refusing to use it; a socket's folder must be this user's alone (mode 0700)")
        }
    }

    /// Who serves a socket that ``trustedServer(at:)`` accepts.
    package enum Server: Sendable, Equatable {
        /// A process running this very program (the same executable file as
        /// the caller), with its process id.
        case sameProgram(pid: Int32)
        /// The user's systemd manager, holding a socket unit's socket.
        case systemd
    }

    /// The server already listening on `path`, when this user may hand it
    /// what it is sent: in a folder that ``preparePrivateFolder(of:)`` accepts,
    /// a socket file of this user's, listened on (as the kernel recorded it,
    /// `SO_PEERCRED`) by a process of this user's that runs this very program
    /// or is the user's systemd manager. A connect alone says none of that: a
    /// folder another user made first, with their server in it, also accepts.
    ///
    /// - Returns: The server, or `nil` when nothing serves `path` (no socket
    ///   yet, or a dead server's, which ``listen(at:nonBlocking:whileBound:)``
    ///   replaces).
    /// - Throws: ``Failure`` saying why it must not be used: the folder, the
    ///   socket's owner, the listener's user or its program.
    package static func trustedServer(at path: String) throws(Failure) -> Server? {
        let directory = PrivateFile.parentDirectory(of: path)
        guard PrivateFile.exists(directory) else { return nil }
        try preparePrivateFolder(of: path)
        let shown = path.escapingControlCharacters()
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw Failure(description: "\(shown): \(errorText())")
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw Failure(description: "\(shown) exists and is not a socket: refusing to use it") }
        guard info.st_uid == geteuid() else {
            throw Failure(description: "\(shown) belongs to uid \(info.st_uid), not you (uid \(geteuid())): refusing to use it")
        }
        guard let descriptor = connect(to: path) else { return nil }
        defer { Glibc.close(descriptor) }
        guard let listener = peer(of: descriptor) else {
            throw Failure(description: "the kernel does not say who listens on \(shown): refusing to use it")
        }
        guard listener.uid == geteuid() else {
            throw Failure(description: "\(shown) is served by uid \(listener.uid) (pid \(listener.pid)), not you (uid \(geteuid())): refusing to use it")
        }
        let program = "/proc/\(listener.pid)/exe"
        // Which file runs, by device and inode (the kernel's link, followed):
        // a program renamed `sesame`, or a copy elsewhere, is another file.
        guard let running = fileIdentity(program) else {
            throw Failure(description: "cannot tell which program serves \(shown) (pid \(listener.pid)): refusing to use it")
        }
        if let own = fileIdentity("/proc/self/exe"), running == own { return .sameProgram(pid: listener.pid) }
        let name = linkText(program) ?? "?"
        // An agent started before an upgrade runs the replaced file, which the
        // kernel names "<path> (deleted)": the same program, at the same path.
        if let ownPath = linkText("/proc/self/exe"), name == ownPath + " (deleted)" { return .sameProgram(pid: listener.pid) }
        if ["/usr/lib/systemd/systemd", "/lib/systemd/systemd"].contains(where: { fileIdentity($0) == running }) { return .systemd }
        throw Failure(description: "\(shown) is served by \(name.escapingControlCharacters()) (pid \(listener.pid)), not by this Sesame: refusing to use it")
    }

    /// The device and inode of the file `path` leads to (links followed).
    private static func fileIdentity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// What the symbolic link at `path` says.
    private static func linkText(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A blocking socket connected to `path`, or `nil` when nothing accepts there.
    package static func connect(to path: String) -> Int32? {
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else { return nil }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        guard withAddress(path, { Glibc.connect(descriptor, $0, $1) }) == 0 else {
            Glibc.close(descriptor)
            return nil
        }
        return descriptor
    }

    /// The process and user at the other end of a connected socket, as the
    /// kernel recorded them when it connected (`SO_PEERCRED`).
    package static func peer(of descriptor: Int32) -> (pid: Int32, uid: UInt32)? {
        // struct ucred: pid, uid, gid (Glibc's module hides the type).
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, credentials.0 > 0 else { return nil }
        return (credentials.0, credentials.1)
    }

    private static func withAddress<Result>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
#endif
