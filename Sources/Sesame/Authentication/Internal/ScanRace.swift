/// One scan racing the prompt's buttons: whichever comes first wins and the
/// other is cancelled, so Cancel stops the sensor (fprintd: `VerifyStop`) and
/// a finished scan stops waiting for a button.
enum ScanRace: Sendable {
    case scanned(ScanResult)
    case pressed(PromptAction)
    case failed(BiometricSensorError)

    static func run(session: any BiometricSession, prompt: PromptSession) async -> ScanRace {
        await withTaskGroup(of: ScanRace?.self) { group in
            group.addTask {
                do throws(BiometricSensorError) {
                    return .scanned(try await session.scan { hint in await prompt.show(.hint(hint)) })
                } catch {
                    return .failed(error)
                }
            }
            group.addTask {
                // nil: this presenter has no buttons; the scan alone decides.
                await prompt.userAction().map(ScanRace.pressed)
            }
            var winner: ScanRace = .failed(.cancelled)
            for await result in group {
                guard let result else { continue }
                winner = result
                break
            }
            group.cancelAll()
            return winner
        }
    }
}
