#if os(Linux)
import Sesame

/// The latest state a watcher saw, shared by the copies of one
/// ``LogindSessionLock``: while at least one watcher runs, reads answer from
/// it, as logind's signals keep it current.
final class LogindStateCache: Sendable {
    private struct Content {
        var watchers = 0
        var state: SessionLockState?
    }

    private let content = Locked(Content())

    /// The latest state, while a watcher runs and has read one.
    var current: SessionLockState? {
        content.withLock { $0.watchers > 0 ? $0.state : nil }
    }

    func begin() {
        content.withLock { $0.watchers += 1 }
    }

    func update(_ state: SessionLockState) {
        content.withLock { $0.state = state }
    }

    func end() {
        content.withLock { content in
            content.watchers -= 1
            if content.watchers == 0 { content.state = nil }
        }
    }
}

/// One ``LogindSessionLock/states()`` sequence: a connection to logind on a
/// thread of its own, which yields the state at once and then after every
/// signal that changes it, until the consumer stops iterating.
final class LogindWatch: Sendable {
    private let configuration: LogindSessionLock.Configuration
    private let marks: SessionMarks
    private let cache: LogindStateCache
    private let continuation: AsyncStream<SessionLockState>.Continuation
    private let stopped = Locked(false)
    /// How long one wait for a signal lasts before the stop flag is looked at.
    private static let pollMicroseconds: UInt64 = 200_000

    init(configuration: LogindSessionLock.Configuration, marks: SessionMarks, cache: LogindStateCache,
         continuation: AsyncStream<SessionLockState>.Continuation) {
        self.configuration = configuration
        self.marks = marks
        self.cache = cache
        self.continuation = continuation
    }

    func stop() {
        stopped.withLock { $0 = true }
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    /// The thread's body.
    func run() {
        cache.begin()
        defer {
            cache.end()
            continuation.finish()
        }
        var last: SessionLockState?
        let publish = { (facts: LogindFacts) in
            let state = facts.state(uid: self.configuration.uid, marks: self.marks)
            self.cache.update(state)
            // A change of words alone (the locker's hint confirming logind's
            // Lock) is not a change of state.
            if let last, last.condition == state.condition, last.session == state.session,
               last.unlockedSinceBoot == state.unlockedSinceBoot { return }
            last = state
            self.continuation.yield(state)
        }
        let client: DBusClient
        do throws(DBusError) {
            client = try DBusClient.open(address: configuration.systemBusAddress)
        } catch {
            publish(LogindFacts(failure: LogindFacts.failure(error)))
            return
        }
        defer { client.close() }
        var facts = LogindFacts()
        do throws(DBusError) {
            for rule in LogindBus.managerMatchRules { try client.addMatch(rule) }
            try resolve(client, &facts)
            publish(facts)
            while !isStopped {
                guard let signal = try client.nextSignal(timeoutMicroseconds: Self.pollMicroseconds) else { continue }
                try apply(signal, client, &facts)
                publish(facts)
            }
        } catch {
            facts.failure = LogindFacts.failure(error)
            publish(facts)
        }
    }

    /// Finds the owner's session again and reads everything afresh: at the
    /// start, and whenever logind or the sessions change.
    private func resolve(_ client: DBusClient, _ facts: inout LogindFacts) throws(DBusError) {
        let timeout = configuration.timeoutMicroseconds
        facts = LogindFacts()
        do throws(DBusError) {
            let owner = try LogindBus.ownerSession(client, sessionID: configuration.sessionID, uid: configuration.uid, timeout: timeout)
            facts.session = owner?.0
            facts.lockedHint = owner?.locked ?? false
            if let session = facts.session {
                for rule in LogindBus.sessionMatchRules(session) { try client.addMatch(rule) }
                // A change between the read and the rule would be missed: read again now that it is in place.
                facts.lockedHint = try LogindBus.lockedHint(client, session, timeout: timeout)
            }
            facts.sleeping = LogindBus.preparingForSleep(client, timeout: timeout)
        } catch where error.localFailure == nil {
            // logind is gone or failing: say so, and keep listening for its return.
            facts.failure = LogindFacts.failure(error)
        }
    }

    private func apply(_ signal: DBusSignal, _ client: DBusClient, _ facts: inout LogindFacts) throws(DBusError) {
        let arguments = signal.arguments ?? []
        switch (signal.interface, signal.member) {
        case ("org.freedesktop.DBus", "NameOwnerChanged"):
            let owner = arguments.count == 3 ? arguments[2].stringValue ?? "" : ""
            if owner.isEmpty {
                facts = LogindFacts(failure: SessionLockState(.unobserved, detail: "no session manager: logind left the system bus"))
            } else {
                try resolve(client, &facts)
            }
        case (LogindBus.managerInterface, "PrepareForSleep"):
            facts.sleeping = arguments.first?.booleanValue ?? facts.sleeping
        case (LogindBus.managerInterface, "SessionNew"), (LogindBus.managerInterface, "SessionRemoved"),
             (LogindBus.managerInterface, "UserNew"), (LogindBus.managerInterface, "UserRemoved"):
            let sleeping = facts.sleeping
            try resolve(client, &facts)
            facts.sleeping = facts.sleeping || sleeping
        case (LogindBus.sessionInterface, "Lock") where signal.path == facts.session?.path:
            facts.lockRequested = true
        case (LogindBus.sessionInterface, "Unlock") where signal.path == facts.session?.path:
            facts.lockRequested = false
        case (LogindBus.propertiesInterface, "PropertiesChanged") where signal.path == facts.session?.path:
            try applyProperties(arguments, client, &facts)
        default:
            break
        }
    }

    /// A session's `PropertiesChanged`: the new `LockedHint`, carried or
    /// (when only invalidated) read again. The hint going off ends a
    /// requested lock: the locker unlocked.
    private func applyProperties(_ arguments: [DBusValue], _ client: DBusClient, _ facts: inout LogindFacts) throws(DBusError) {
        guard arguments.count == 3, arguments[0].stringValue == LogindBus.sessionInterface, let session = facts.session else { return }
        let changed = arguments[1].variantDictionaryValue ?? [:]
        let invalidated = arguments[2].arrayValues?.compactMap(\.stringValue) ?? []
        let hint: Bool
        if let value = changed["LockedHint"]?.booleanValue {
            hint = value
        } else if invalidated.contains("LockedHint") {
            hint = try LogindBus.lockedHint(client, session, timeout: configuration.timeoutMicroseconds)
        } else {
            return
        }
        if facts.lockedHint, !hint { facts.lockRequested = false }
        facts.lockedHint = hint
    }
}
#endif
