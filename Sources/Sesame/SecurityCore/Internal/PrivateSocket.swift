#if os(Linux)
import Glibc

/// A Unix stream socket only its owner may reach: 0600 before it can be
/// reached, in a directory of mode 0700 that must be this user's alone, at its
/// path only once it listens, a stale socket of a dead server replaced and a
/// live one or any other file left alone. What connects is then told apart by the kernel's record of
/// its user (``peer(of:)``), never by what it says.
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
        let directory = PrivateFile.parentDirectory(of: path)
        do {
            try PrivateFile.createDirectories(directory)
            try PrivateFile.requirePrivate(directory)
        } catch {
            throw Failure(description: "\(directory): \(error); a socket's directory must be this user's alone (mode 0700)")
        }
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
