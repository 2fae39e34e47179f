#if os(Linux)
import CSesameTestProcess
import Foundation
import Glibc
@testable import Sesame
import SesameLinuxTesting
import SesameTesting
import Testing

/// The one owner-only socket helper behind the SSH agent and the passkey
/// report socket: where it appears, who may take its path, what it replaces.
@Suite("Private sockets")
struct PrivateSocketTests {
    let directory: TemporaryDirectory
    var path: String { directory.path + "/run/sesame/test.sock" }

    init() throws {
        directory = try TemporaryDirectory()
    }

    private static func listen(_ path: String, whileBound: () -> Void = {}) -> Result<Int32, PrivateSocket.Failure> {
        do throws(PrivateSocket.Failure) {
            return .success(try PrivateSocket.listen(at: path, whileBound: whileBound))
        } catch {
            return .failure(error)
        }
    }

    @Test("A socket is 0600 in a 0700 folder, accepts at once, leaves no staging file, and the peer is this process")
    func listens() throws {
        let listener = try Self.listen(path).get()
        defer { close(listener) }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        let folderMode = try FileManager.default.attributesOfItem(atPath: directory.path + "/run/sesame")[.posixPermissions] as? Int
        #expect(folderMode == 0o700, "\(String(folderMode ?? -1, radix: 8))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/run/sesame") == ["test.sock"])
        let client = try #require(PrivateSocket.connect(to: path))
        defer { close(client) }
        let accepted = accept(listener, nil, nil)
        defer { close(accepted) }
        let peer = try #require(PrivateSocket.peer(of: accepted))
        #expect(peer.pid == getpid() && peer.uid == geteuid())
    }

    @Test("A live server keeps its path; a stale socket is replaced; any other file is left alone")
    func replaces() throws {
        let first = try Self.listen(path).get()
        #expect(String(describing: try #require(Self.listen(path).failure)).contains("already listening"))
        close(first)  // the server died: its socket file stays, stale
        let second = try Self.listen(path).get()
        defer { close(second) }
        #expect(PrivateSocket.connect(to: path).map { close($0) } != nil)
        let other = directory.path + "/run/sesame/notes.txt"
        #expect(FileManager.default.createFile(atPath: other, contents: Data("keep".utf8)))
        #expect(String(describing: try #require(Self.listen(other).failure)).contains("is not a socket"))
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "keep")
    }

    @Test("A client that sees the path is never refused: bound but not yet listening, the socket is not at its path")
    func appearsListening() throws {
        var seenWhileBound = true
        let listener = try Self.listen(path, whileBound: {
            // The moment a bind-then-listen server refuses every client.
            usleep(20_000)
            seenWhileBound = access(path, F_OK) == 0
        }).get()
        defer { close(listener) }
        #expect(!seenWhileBound, "the path existed before the socket listened")
        #expect(PrivateSocket.connect(to: path).map { close($0) } != nil)
    }

    @Test("Many servers starting at once on a free path: exactly one gets it, the others are told it is taken")
    func oneWinner() async throws {
        let results = await withTaskGroup(of: Result<Int32, PrivateSocket.Failure>.self) { group in
            // Each stays bound a while before listening, so every one overlaps the others.
            for _ in 0..<16 { group.addTask { [path] in Self.listen(path, whileBound: { usleep(20_000) }) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let winners = results.compactMap { try? $0.get() }
        defer { for descriptor in winners { close(descriptor) } }
        #expect(winners.count == 1)
        for case .failure(let failure) in results {
            #expect(failure.description.contains("already listening"), "\(failure)")
        }
        #expect(PrivateSocket.connect(to: path).map { close($0) } != nil)
    }

    private static func trusted(_ path: String) -> Result<PrivateSocket.Server?, PrivateSocket.Failure> {
        do throws(PrivateSocket.Failure) {
            return .success(try PrivateSocket.trustedServer(at: path))
        } catch {
            return .failure(error)
        }
    }

    /// A python listener on `socket` (bound aside, renamed into place once it
    /// listens), as `user` when given; stop it with ``stop(_:)``. Spawned
    /// directly, not with Foundation's Process, whose exit watch would see
    /// the listener's closing of inherited descriptors as its end.
    private static func pythonListener(on socket: String, user: uid_t? = nil) async throws -> pid_t {
        let code = """
            import os, socket, sys
            os.closerange(3, 65536)
            s = socket.socket(socket.AF_UNIX)
            s.bind(sys.argv[1] + ".new")
            s.listen(8)
            os.rename(sys.argv[1] + ".new", sys.argv[1])
            while True:
                c, _ = s.accept()
            """
        let arguments = (user.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []) + [TestPython.path, "-c", code, socket]
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        sesame_test_spawn_close_from(&actions, 3)
        try #require(posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0, "cannot start \(arguments[0])")
        for _ in 0..<1200 where access(socket, F_OK) != 0 { try await Task.sleep(for: .milliseconds(25)) }
        if access(socket, F_OK) != 0 { stop(pid) }
        try #require(access(socket, F_OK) == 0, "the listener never listened on \(socket)")
        return pid
    }

    private static func stop(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    @Test("Issue 44 finding 1: a server of this program in a private folder is trusted, with its pid; a dead one's socket, or none, is no server")
    func trustsItsOwn() throws {
        #expect(try Self.trusted(path).get() == nil, "no folder yet")
        let listener = try Self.listen(path).get()
        #expect(try Self.trusted(path).get() == .sameProgram(pid: getpid()))
        close(listener)
        // A child another test is starting holds a copy of every descriptor
        // until its exec closes them (CLOEXEC): the socket dies then.
        for _ in 0..<3000 where try Self.trusted(path).get() != nil { usleep(10_000) }
        #expect(try Self.trusted(path).get() == nil, "a stale socket is for listen to replace")
    }

    @Test("Issue 44 finding 1: a folder open to others or a link to a folder is refused, saying why, before anything connects")
    func refusesFolders() throws {
        let listener = try Self.listen(path).get()
        defer { close(listener) }
        let folder = directory.path + "/run/sesame"
        #expect(chmod(folder, 0o755) == 0)
        #expect(String(describing: try #require(Self.trusted(path).failure)).contains("\(folder) is open to other users (mode 755)"))
        #expect(chmod(folder, 0o700) == 0)
        let link = directory.path + "/run/link"
        #expect(symlink(folder, link) == 0)
        #expect(String(describing: try #require(Self.trusted(link + "/test.sock").failure)).contains("\(link) is a symbolic link, not a folder"))
        #expect(String(describing: try #require(Self.listen(link + "/other.sock").failure)).contains("is a symbolic link"))
    }

    @Test("Issue 44 finding 1: another program of this user listening in the private folder is refused, named by its executable")
    func refusesAnotherProgram() async throws {
        try PrivateSocket.preparePrivateFolder(of: path)
        let python = try await Self.pythonListener(on: path)
        defer { Self.stop(python) }
        let failure = String(describing: try #require(Self.trusted(path).failure))
        #expect(failure.contains("is served by \(URL(fileURLWithPath: TestPython.path).resolvingSymlinksInPath().path)") && failure.contains("(pid \(python)), not by this Sesame"), "\(failure)")
    }

    @Test("Issue 44 finding 1: another user's folder, socket file or listener is refused, naming the uid",
          .enabled(if: getuid() == 0, "plants another user's files and listener (chown, setpriv): needs root, as CI runs"))
    func refusesAnotherUser() async throws {
        let nobody: uid_t = 65534
        let folder = directory.path + "/run/sesame"
        try PrivateSocket.preparePrivateFolder(of: path)
        #expect(chown(folder, nobody, nobody) == 0)
        #expect(String(describing: try #require(Self.trusted(path).failure)).contains("\(folder) belongs to uid 65534, not you"))
        #expect(String(describing: try #require(Self.listen(path).failure)).contains("belongs to uid 65534"))
        #expect(chown(folder, 0, 0) == 0)

        // Another user's listener, moved into this user's folder and its file
        // given to this user: only the kernel's record of the listener is left.
        let shared = directory.path + "/shared"
        #expect(mkdir(shared, 0o777) == 0 && chmod(shared, 0o777) == 0 && chmod(directory.path, 0o755) == 0)
        let python = try await Self.pythonListener(on: shared + "/their.sock", user: nobody)
        defer { Self.stop(python) }
        #expect(rename(shared + "/their.sock", path) == 0)
        #expect(String(describing: try #require(Self.trusted(path).failure)).contains("test.sock belongs to uid 65534, not you"))
        #expect(chown(path, 0, 0) == 0)
        let failure = String(describing: try #require(Self.trusted(path).failure))
        #expect(failure.contains("is served by uid 65534 (pid \(python)), not you"), "\(failure)")
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
#endif
