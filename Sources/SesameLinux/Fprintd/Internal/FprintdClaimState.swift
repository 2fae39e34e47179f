/// What one claim holds on fprintd's side, so that every exit path undoes
/// exactly that (`VerifyStop`, `Release`) and nothing more: a `Release` sent
/// after fprintd left the bus could start a fresh daemon through activation.
struct FprintdClaimState: Sendable {
    var devicePath: String?
    var claimed = false
    var verifying = false
}
