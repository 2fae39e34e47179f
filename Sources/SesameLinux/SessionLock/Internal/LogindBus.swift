#if os(Linux)
import Sesame

/// logind's D-Bus names and the reads Sesame makes, with a ``DBusClient``
/// on its own thread.
enum LogindBus {
    static let service = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"
    static let sessionInterface = "org.freedesktop.login1.Session"
    static let userInterface = "org.freedesktop.login1.User"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    /// The thread a connection to logind lives on.
    static let threadName = "sesame-logind"

    /// A session of the owner's: its id and object path.
    struct Session: Equatable {
        var id: String
        var path: String
    }

    /// The owner's session and its `LockedHint`: the caller's own session
    /// (`XDG_SESSION_ID`) when logind still knows it, else the user's
    /// display session, else the first of the user's sessions; `nil` when
    /// the user has none. The caller's session costs two calls.
    ///
    /// - Throws: ``DBusError`` when logind cannot be asked at all.
    static func ownerSession(_ client: DBusClient, sessionID: String?, uid: UInt32, timeout: UInt64) throws(DBusError) -> (Session, locked: Bool)? {
        if let sessionID, !sessionID.isEmpty, let found = try callerSession(client, sessionID, timeout: timeout) {
            return found
        }
        let user: String
        do throws(DBusError) {
            let reply = try client.call(service, path: managerPath, interface: managerInterface, member: "GetUser",
                                        [.uint32(uid)], timeoutMicroseconds: timeout)
            guard let path = reply.first?.objectPathValue else { throw unexpected("GetUser") }
            user = path
        } catch where error.name == "org.freedesktop.login1.NoSuchUser" {
            return nil
        }
        let display = try? client.property(service, path: user, interface: userInterface, name: "Display", timeoutMicroseconds: timeout)
        var session = sessionReference(display).flatMap { $0.id.isEmpty ? nil : $0 }
        if session == nil {
            let sessions: DBusValue
            do throws(DBusError) {
                sessions = try client.property(service, path: user, interface: userInterface, name: "Sessions", timeoutMicroseconds: timeout)
            } catch where isMissingObject(error) {
                return nil
            }
            session = sessions.arrayValues?.lazy.compactMap(sessionReference).first { !$0.id.isEmpty }
        }
        guard let session else { return nil }
        return (session, try lockedHint(client, session, timeout: timeout))
    }

    /// `GetSession(id)` and its `LockedHint`; `nil` for a stale
    /// `XDG_SESSION_ID` (a shell outliving its login), which logind no
    /// longer knows.
    private static func callerSession(_ client: DBusClient, _ id: String, timeout: UInt64) throws(DBusError) -> (Session, locked: Bool)? {
        do throws(DBusError) {
            let reply = try client.call(service, path: managerPath, interface: managerInterface, member: "GetSession",
                                        [.string(id)], timeoutMicroseconds: timeout)
            guard let path = reply.first?.objectPathValue else { throw unexpected("GetSession") }
            let session = Session(id: id, path: path)
            return (session, try lockedHint(client, session, timeout: timeout))
        } catch where error.name == "org.freedesktop.login1.NoSuchSession" || isMissingObject(error) {
            return nil
        }
    }

    /// The session's `LockedHint`, which the screen locker sets.
    static func lockedHint(_ client: DBusClient, _ session: Session, timeout: UInt64) throws(DBusError) -> Bool {
        let value = try client.property(service, path: session.path, interface: sessionInterface, name: "LockedHint",
                                        timeoutMicroseconds: timeout)
        guard let locked = value.booleanValue else { throw unexpected("LockedHint") }
        return locked
    }

    /// The manager's `PreparingForSleep`; `false` where logind does not
    /// have it (older versions announce sleep only by the signal).
    static func preparingForSleep(_ client: DBusClient, timeout: UInt64) -> Bool {
        let value = try? client.property(service, path: managerPath, interface: managerInterface, name: "PreparingForSleep",
                                         timeoutMicroseconds: timeout)
        return value?.booleanValue ?? false
    }

    /// What a watcher listens to: logind leaving or coming back, sleep,
    /// sessions coming and going (a login after a state of no session).
    static let managerMatchRules = [
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(service)'",
        "type='signal',sender='\(service)',interface='\(managerInterface)',path='\(managerPath)'",
    ]

    /// A session's `Lock`/`Unlock` signals and its property changes.
    static func sessionMatchRules(_ session: Session) -> [String] {
        [
            "type='signal',sender='\(service)',interface='\(sessionInterface)',path='\(session.path)'",
            "type='signal',sender='\(service)',interface='\(propertiesInterface)',member='PropertiesChanged',path='\(session.path)'",
        ]
    }

    /// Whether the error says logind, or the object asked about, is not there.
    static func isMissingObject(_ error: DBusError) -> Bool {
        [
            "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownInterface",
            "org.freedesktop.DBus.Error.UnknownProperty", "org.freedesktop.DBus.Error.UnknownMethod",
            "org.freedesktop.DBus.Error.InvalidArgs",
        ].contains(error.name)
    }

    /// Whether the error says nothing owns logind's name on this bus.
    static func isAbsent(_ error: DBusError) -> Bool {
        error.name == "org.freedesktop.DBus.Error.ServiceUnknown" || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }

    /// A `(so)` session reference, as the user's `Display` and `Sessions` hold.
    private static func sessionReference(_ value: DBusValue?) -> Session? {
        guard let fields = value?.structureFields, fields.count == 2,
              let id = fields[0].stringValue, let path = fields[1].objectPathValue else { return nil }
        return Session(id: id, path: path)
    }

    private static func unexpected(_ what: String) -> DBusError {
        .failed("logind's answer to \(what) is not of the documented type")
    }
}
#endif
