import Sesame
import SesameLinux

/// SPEC D10: `Unlock` answers what is already open and a Prompt for the rest;
/// `Prompt.Prompt` runs the items' access control with a reason naming the
/// calling program and the items (the labels their owner stored: a locked
/// item is never relabelled without its access control); `Completed`, sent
/// to that client alone, carries what opened, and what opened is exactly
/// what the prompt named, for that client; `Dismiss` and the caller leaving
/// the bus cancel.
extension ServiceCore {
    func unlock(_ objects: DBusValue, request: DBusRequest) async throws -> [DBusValue] {
        let paths = try objectPaths(objects)
        let caller = caller(of: request)
        var unlocked: [String] = []
        var locked: [SecretServiceItemID] = []
        var collections: [PromptObject.Collection] = []
        var named = 0
        for path in paths {
            switch SecretObject(path: path) {
            case .collection, .alias:
                let id = try await resolveCollection(SecretObject(path: path)!)
                let items = try await store.items(in: id).filter { Self.isServable($0.id) }
                named += items.count
                try Self.checkPathCount(named)
                var lockedHere: [SecretServiceItemID] = []
                for item in items where try await store.needsAuthentication(item.id, for: caller) { lockedHere.append(item.id) }
                if lockedHere.isEmpty {
                    unlocked.append(SecretObject.collectionPath(id))
                } else {
                    collections.append(PromptObject.Collection(path: SecretObject.collectionPath(id), items: lockedHere))
                    locked += lockedHere.filter { !locked.contains($0) }
                }
            case .item(let id):
                named += 1
                try Self.checkPathCount(named)
                _ = try await store.item(id)
                if try await store.needsAuthentication(id, for: caller) {
                    if !locked.contains(id) { locked.append(id) }
                } else {
                    unlocked.append(path)
                }
            default:
                throw SecretServiceErrors.noSuchObject(path)
            }
        }
        guard !locked.isEmpty else { return [.objectPaths(unlocked), .objectPath("/")] }
        try admitPromptObject(for: request.sender)
        nextPromptObject += 1
        promptObjects[nextPromptObject] = PromptObject(owner: request.sender, ownerPID: request.senderPID,
                                                            ownerConnectedBy: request.senderConnectedBy, ownerApp: request.senderApp, items: locked,
                                            collections: collections, alreadyUnlocked: unlocked)
        return [.objectPaths(unlocked), .objectPath(SecretObject.promptObjectPath(nextPromptObject))]
    }

    func promptObjectMethod(_ request: DBusRequest, _ number: UInt64) throws -> DBusReply {
        guard var prompt = promptObjects[number], prompt.owner == request.sender else {
            throw SecretServiceErrors.noSuchObject(request.path)
        }
        switch request.member {
        case "Prompt":
            try expect(request, "Prompt", "s")
            guard !prompt.started else { throw DBusError.failed("the prompt is already running") }
            prompt.started = true
            promptObjects[number] = prompt
            // Completed must follow this reply on the bus, so the work starts once it is sent.
            return DBusReply([], afterSending: { Task { await self.runPromptObject(number) } })
        case "Dismiss":
            try expect(request, "Dismiss", "")
            prompt.dismissed = true
            promptObjects[number] = prompt
            if let task = prompt.task {
                task.cancel()
            } else if !prompt.started {
                promptObjects[number] = nil
                let owner = prompt.owner
                return DBusReply([], afterSending: { Task { await self.complete(number, owner: owner, dismissed: true, unlocked: []) } })
            }
            return DBusReply([])
        default:
            throw DBusError.unknownMethod("org.freedesktop.Secret.Prompt has no method \(request.member.escapingControlCharacters())")
        }
    }

    private func runPromptObject(_ number: UInt64) async {
        guard let prompt = promptObjects[number] else { return }
        if prompt.dismissed {
            promptObjects[number] = nil
            complete(number, owner: prompt.owner, dismissed: true, unlocked: [])
            return
        }
        let reason = await promptReason(prompt)
        // Reading the labels suspended this actor: the client may have left
        // (its prompt is gone) or dismissed meanwhile. Neither may reach the owner.
        guard let current = promptObjects[number] else { return }
        if current.dismissed {
            promptObjects[number] = nil
            complete(number, owner: prompt.owner, dismissed: true, unlocked: [])
            return
        }
        let store = self.store
        let items = prompt.items
        // The opening is the prompt's client's alone (SPEC D10).
        let caller = SecretServiceCaller(busName: prompt.owner, pid: prompt.ownerPID, executable: nil, app: prompt.ownerApp,
                                         connectedBy: prompt.ownerConnectedBy)
        let task = Task { try await store.authenticate(items, reason: reason, for: caller) }
        promptObjects[number]?.task = task
        let outcome = await task.result
        // Dismissed while running, or the client left: cancelled either way.
        let cancelled = promptObjects[number]?.dismissed ?? true
        promptObjects[number] = nil
        switch outcome {
        case .success where !cancelled:
            var opened = prompt.alreadyUnlocked
            var open: Set<SecretServiceItemID> = []
            for id in items where (try? await store.needsAuthentication(id, for: caller)) == false {
                open.insert(id)
                opened.append(SecretObject.itemPath(id))
            }
            opened += prompt.collections.filter { $0.items.allSatisfy(open.contains) }.map(\.path)
            complete(number, owner: prompt.owner, dismissed: false, unlocked: opened)
        default:
            // Cancelled, dismissed or failed: fail closed, nothing opened, and the reason told.
            let why: String = switch outcome {
            case .failure(let error): SecretServiceErrors.from(error).message
            default: "the client dismissed it or left"
            }
            log("sesame secret-service: the prompt of \(Self.program(prompt.ownerPID)) opened nothing: \(why.escapingControlCharacters())")
            complete(number, owner: prompt.owner, dismissed: true, unlocked: [])
        }
    }

    /// `Completed`, to the prompt's client alone: what it opened is no other client's business.
    func complete(_ number: UInt64, owner: String, dismissed: Bool, unlocked: [String]) {
        emit(SecretObject.promptObjectPath(number), Self.promptInterface, "Completed",
             [.boolean(dismissed), .variant(.objectPaths(unlocked))], to: owner)
    }

    /// How many labels a prompt lists before it says how many more.
    static let promptLabels = 12

    /// "<program> wants to open "<label>", "<label>" and N more items",
    /// every outside text escaped.
    private func promptReason(_ prompt: PromptObject) async -> String {
        let program = ProcessExecutable.path(of: prompt.ownerPID).map { $0.escapingControlCharacters() }
            ?? "an unknown program (pid \(prompt.ownerPID))"
        var labels: [String] = []
        for id in prompt.items.prefix(Self.promptLabels) {
            let label = (try? await store.item(id).label) ?? id.item
            labels.append("\"\(label.escapingControlCharacters())\"")
        }
        let more = prompt.items.count - labels.count
        return "\(program) wants to open \(labels.joined(separator: ", "))" + (more > 0 ? " and \(more) more item\(more == 1 ? "" : "s")" : "")
    }
}
