import Sesame
/// One prompt at a time: requests that may prompt wait their turn
/// in arrival order, so two clients never race for the one fingerprint reader
/// or the one terminal.
actor PromptQueue {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
