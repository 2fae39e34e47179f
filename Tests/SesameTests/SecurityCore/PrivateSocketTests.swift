#if os(Linux)
import Foundation
import Glibc
@testable import Sesame
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
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
#endif
