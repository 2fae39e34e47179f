#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An app passcode's attempt counter: the `failures`, `delay` and
/// `lastWrongEntry` fields of its record, changed through the store's atomic
/// update (a flock for ``FileAppRecordStore``, an SQLite write for
/// ``VaultAppRecordStore``), so processes sharing the record count together.
struct AppPasscodeLedger: AttemptLedger {
    let store: any AppRecordStore
    let appIdentifier: String

    func update<Value: Sendable>(_ change: @escaping @Sendable (inout AttemptCounter) -> Value) async throws -> Value {
        let result = Locked<Result<Value, AppPasscodeError>?>(nil)
        try await store.update(appIdentifier: appIdentifier) { bytes in
            guard let stored = bytes else {
                result.withLock { $0 = .failure(.notSet) }
                return
            }
            do throws(AppPasscodeError) {
                var record = try AppPasscodeRecord.decode(stored)
                var counter = AttemptCounter(failures: record.failures, delay: record.delay,
                                             lastWrongEntry: record.lastWrongEntry.map { Array($0) },
                                             inFlight: record.attemptsInFlight ?? [])
                let value = change(&counter)
                record.failures = counter.failures
                record.delay = counter.delay
                record.lastWrongEntry = counter.lastWrongEntry.map { Data($0) }
                record.attemptsInFlight = counter.inFlight.isEmpty ? nil : counter.inFlight
                bytes = try record.encoded()
                result.withLock { $0 = .success(value) }
            } catch {
                // Left as it is: a damaged record fails closed, never resets.
                result.withLock { $0 = .failure(error) }
            }
        }
        guard let outcome = result.withLock({ $0 }) else { throw AppPasscodeError.storage("the store did not apply the change") }
        return try outcome.get()
    }
}
