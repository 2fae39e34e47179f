import GRDB
import SesameTesting

extension TestVault {
    /// Opens the vault file directly, as an attacker with file access would.
    func rawDatabase() throws -> DatabaseQueue {
        try DatabaseQueue(path: path)
    }
}
