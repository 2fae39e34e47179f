#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CryptoExtras
import Crypto
import Dispatch

/// The self-contained record of one app's passcode, stored as JSON: the
/// scrypt hash with its salt and parameters, the attempt history and the
/// erase setting. It never holds the passcode, nor anything a guess can be
/// checked against faster than one scrypt derivation.
struct AppPasscodeRecord: Codable, Sendable {
    static let currentVersion = 1

    /// The record format's version.
    var version: Int
    /// The passcode's hash.
    var hash: PasscodeHash
    /// A random per-record key for fingerprinting the last wrong entry.
    var attemptKey: Data
    /// Distinct wrong entries in a row.
    var failures: Int
    /// The running back-off, kept as start and length so a clock set back
    /// restarts it instead of shortening it.
    var delay: AttemptRecord.Delay?
    /// HMAC(attemptKey, scrypt(last wrong entry)), so retyping the same wrong
    /// passcode counts once; keyed over the slow hash, so it is no faster
    /// to attack than ``hash``.
    var lastWrongEntry: Data?
    /// Whether the tenth wrong entry in a row erases the data.
    var eraseAfterTenFailures: Bool
    /// Attempts counted and being checked right now; absent in records
    /// from before (read as none).
    var attemptsInFlight: [AttemptInFlight]?

    /// A fresh record for `passcode`.
    static func new(_ passcode: SecretBytes, cost: AppPasscodeCost) async throws -> AppPasscodeRecord {
        AppPasscodeRecord(
            version: currentVersion,
            hash: try await PasscodeHash.make(passcode, cost: cost),
            attemptKey: randomBytes(32),
            failures: 0,
            delay: nil,
            lastWrongEntry: nil,
            eraseAfterTenFailures: false,
            attemptsInFlight: nil
        )
    }

    static func decode(_ bytes: [UInt8]) throws(AppPasscodeError) -> AppPasscodeRecord {
        let record: AppPasscodeRecord
        do {
            record = try JSONDecoder().decode(AppPasscodeRecord.self, from: Data(bytes))
        } catch {
            throw .storage("the record is damaged or not Sesame's (\(error))")
        }
        guard record.version <= currentVersion else {
            throw .storage("the record was written by a newer Sesame (format \(record.version))")
        }
        return record
    }

    func encoded() throws(AppPasscodeError) -> [UInt8] {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return Array(try encoder.encode(self))
        } catch {
            throw .storage("the record cannot be encoded (\(error))")
        }
    }

    /// The fingerprint of a wrong entry, from its derived key.
    func fingerprint(of derived: SymmetricKey) -> Data {
        let code = derived.withUnsafeBytes { bytes in
            HMAC<SHA256>.authenticationCode(for: bytes, using: SymmetricKey(data: attemptKey))
        }
        return Data(code)
    }

    /// Clears the history after a right entry.
    mutating func recordSuccess() {
        failures = 0
        delay = nil
        lastWrongEntry = nil
    }
}

/// A salted scrypt hash and the parameters it was made with.
struct PasscodeHash: Codable, Sendable {
    static let saltLength = 16
    static let keyLength = 32

    var algorithm: String
    var n: Int
    var r: Int
    var p: Int
    var salt: Data
    var key: Data

    /// The cost, or `nil` for an unknown algorithm or parameters outside
    /// ``ScryptCost``'s bounds: the record comes from a file an attacker may
    /// have written, and checking a passcode must not exhaust the machine.
    var cost: AppPasscodeCost? {
        guard algorithm == "scrypt", n > 1, n & (n - 1) == 0, r > 0, p > 0 else { return nil }
        let cost = AppPasscodeCost(n: n, r: r, p: p)
        return cost.scryptCost == nil ? nil : cost
    }

    static func make(_ passcode: SecretBytes, cost: AppPasscodeCost) async throws -> PasscodeHash {
        guard cost.scryptCost != nil else { throw AppPasscodeError.storage("\(cost) is outside the bounds Sesame accepts") }
        let salt = randomBytes(saltLength)
        let key = try await derive(passcode, salt: salt, cost: cost)
        return PasscodeHash(
            algorithm: "scrypt", n: cost.n, r: cost.r, p: cost.p, salt: salt,
            key: key.withUnsafeBytes { Data($0) }
        )
    }

    /// The key `passcode` derives under this hash's salt and cost.
    func derive(_ passcode: SecretBytes) async throws -> SymmetricKey {
        guard let cost else { throw AppPasscodeError.storage("unknown hash parameters \(algorithm) N=\(n) r=\(r) p=\(p)") }
        return try await Self.derive(passcode, salt: salt, cost: cost)
    }

    /// Whether `derived` is this hash's key, in constant time.
    func matches(_ derived: SymmetricKey) -> Bool {
        derived.withUnsafeBytes { mine in
            key.withUnsafeBytes { stored in ConstantTime.equals(mine, stored) }
        }
    }

    private static func derive(_ passcode: SecretBytes, salt: Data, cost: AppPasscodeCost) async throws -> SymmetricKey {
        guard let scrypt = cost.scryptCost else { throw AppPasscodeError.storage("\(cost) is outside the bounds Sesame accepts") }
        return try await KeyDerivation.passwordKeyOffPool(passcode, salt: Array(salt), cost: scrypt)
    }
}

func randomBytes(_ count: Int) -> Data {
    SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Data($0) }
}
