import Sesame

/// A FIFO of scripted items that an async consumer waits on, the way a real
/// sensor waits for a finger: `take()` returns the next item, suspending until
/// one is posted, and returns `nil` when the consuming task is cancelled.
final class Mailbox<Item: Sendable>: Sendable {
    private struct State {
        var items: [Item] = []
        var waiter: (id: UInt64, continuation: CheckedContinuation<Item?, Never>)?
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    func post(_ item: Item) {
        let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter.continuation
            }
            state.items.append(item)
            return nil
        }
        waiter?.resume(returning: item)
    }

    /// Removes every queued item.
    func removeAll() {
        state.withLock { $0.items.removeAll() }
    }

    var isWaiting: Bool { state.withLock { $0.waiter != nil } }

    var count: Int { state.withLock { $0.items.count } }

    func take() async -> Item? {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Item?, Never>) in
                let immediate: Item?? = state.withLock { state in
                    if !state.items.isEmpty { return .some(state.items.removeFirst()) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiter = (id, continuation)
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
                guard let waiter = state.waiter, waiter.id == id else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(returning: nil)
        }
    }
}
