import Sesame
import SesameLinux

/// SPEC D10: `Unlock` answers what is already open and a Prompt for the rest;
/// `Prompt.Prompt` runs the items' access control with a reason naming the
/// calling program and the items; `Completed` carries what opened; `Dismiss`
/// and the caller leaving the bus cancel.
extension ServiceCore {
    func unlock(_ objects: DBusValue, request: DBusRequest) async throws -> [DBusValue] {
        guard let paths = objects.arrayValues?.compactMap(\.objectPathValue) else { throw DBusError.invalidArgs("Unlock takes (ao)") }
        let caller = caller(of: request)
        var unlocked: [String] = []
        var locked: [SecretServiceItemID] = []
        for path in paths {
            switch SecretObject(path: path) {
            case .collection, .alias:
                let id = try await resolveCollection(SecretObject(path: path)!)
                unlocked.append(SecretObject.collectionPath(id))
            case .item(let id):
                _ = try await store.item(id)
                if try await store.needsAuthentication(id, for: caller) {
                    locked.append(id)
                } else {
                    unlocked.append(path)
                }
            default:
                throw SecretServiceErrors.noSuchObject(path)
            }
        }
        guard !locked.isEmpty else { return [.objectPaths(unlocked), .objectPath("/")] }
        nextPrompt += 1
        prompts[nextPrompt] = PendingPrompt(owner: request.sender, ownerPID: request.senderPID, items: locked, alreadyUnlocked: unlocked)
        return [.objectPaths(unlocked), .objectPath(SecretObject.promptPath(nextPrompt))]
    }

    func promptMethod(_ request: DBusRequest, _ number: UInt64) throws -> DBusReply {
        guard var prompt = prompts[number], prompt.owner == request.sender else {
            throw SecretServiceErrors.noSuchObject(request.path)
        }
        switch request.member {
        case "Prompt":
            try expect(request, "Prompt", "s")
            guard !prompt.started else { throw DBusError.failed("the prompt is already running") }
            prompt.started = true
            prompts[number] = prompt
            // Completed must follow this reply on the bus, so the work starts once it is sent.
            return DBusReply([], afterSending: { Task { await self.runPrompt(number) } })
        case "Dismiss":
            try expect(request, "Dismiss", "")
            prompt.dismissed = true
            prompts[number] = prompt
            if let task = prompt.task {
                task.cancel()
            } else if !prompt.started {
                prompts[number] = nil
                return DBusReply([], afterSending: { Task { await self.complete(number, dismissed: true, unlocked: []) } })
            }
            return DBusReply([])
        default:
            throw DBusError.unknownMethod("org.freedesktop.Secret.Prompt has no method \(request.member.escapingControlCharacters())")
        }
    }

    private func runPrompt(_ number: UInt64) async {
        guard let prompt = prompts[number] else { return }
        if prompt.dismissed {
            prompts[number] = nil
            complete(number, dismissed: true, unlocked: [])
            return
        }
        let reason = await promptReason(prompt)
        let store = self.store
        let items = prompt.items
        // The opening is the prompt's client's alone (SPEC D10).
        let caller = SecretServiceCaller(busName: prompt.owner, pid: prompt.ownerPID, executable: nil)
        let task = Task { try await store.authenticate(items, reason: reason, for: caller) }
        prompts[number]?.task = task
        let outcome = await task.result
        // Dismissed while running, or the client left: cancelled either way.
        let cancelled = prompts[number]?.dismissed ?? true
        prompts[number] = nil
        switch outcome {
        case .success where !cancelled:
            var opened = prompt.alreadyUnlocked
            for id in items where (try? await store.needsAuthentication(id, for: caller)) == false {
                opened.append(SecretObject.itemPath(id))
            }
            complete(number, dismissed: false, unlocked: opened)
        default:
            // Cancelled, dismissed or failed: fail closed, nothing opened.
            complete(number, dismissed: true, unlocked: [])
        }
    }

    func complete(_ number: UInt64, dismissed: Bool, unlocked: [String]) {
        emit(SecretObject.promptPath(number), Self.promptInterface, "Completed",
             [.boolean(dismissed), .variant(.objectPaths(unlocked))])
    }

    /// "<program> wants to open: <label>, <label>", every outside text escaped.
    private func promptReason(_ prompt: PendingPrompt) async -> String {
        let program = ProcessExecutable.path(of: prompt.ownerPID).map { $0.escapingControlCharacters() }
            ?? "an unknown program (pid \(prompt.ownerPID))"
        var labels: [String] = []
        for id in prompt.items {
            let label = (try? await store.item(id).label) ?? id.item
            labels.append("\"\(label.escapingControlCharacters())\"")
        }
        return "\(program) wants to open \(labels.joined(separator: ", "))"
    }
}
