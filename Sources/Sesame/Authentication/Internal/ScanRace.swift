/// One scan racing the prompt's buttons: whichever comes first wins and the
/// other is cancelled, so Cancel stops the sensor (fprintd: `VerifyStop`) and
/// a finished scan stops waiting for a button.
enum ScanRace: Sendable {
    case scanned(ScanResult)
    case pressed(PromptAction)
    case failed(BiometricSensorError)

    /// - Parameter acceptsFallback: When `false` there is no fallback button,
    ///   so a stray fallback press neither wins nor disturbs the scan running.
    static func run(claim: any BiometricClaim, prompt: EvaluationPrompt, acceptsFallback: Bool) async -> ScanRace {
        await withTaskGroup(of: ScanRace?.self) { group in
            group.addTask {
                do throws(BiometricSensorError) {
                    return .scanned(try await claim.scan { hint in await prompt.show(.hint(hint)) })
                } catch {
                    return .failed(error)
                }
            }
            let listen: @Sendable () async -> ScanRace? = {
                // nil: this presenter has no buttons; the scan alone decides.
                await prompt.userAction().map(ScanRace.pressed)
            }
            group.addTask(operation: listen)
            var winner: ScanRace = .failed(.cancelled)
            while let result = await group.next() {
                guard let result else { continue }
                if case .pressed(.fallback) = result, !acceptsFallback {
                    group.addTask(operation: listen)
                    continue
                }
                winner = result
                break
            }
            group.cancelAll()
            return winner
        }
    }
}
