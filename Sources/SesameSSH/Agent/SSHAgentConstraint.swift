import Sesame
/// A constraint `ssh-add` attaches to a key (`SSH_AGENTC_ADD_ID_CONSTRAINED`,
/// message 25). An agent must refuse a key whose constraints it cannot
/// enforce, so unknown extensions are reported, never dropped.
public enum SSHAgentConstraint: Sendable, Equatable {
    /// `SSH_AGENT_CONSTRAIN_LIFETIME` (1): forget the key after this many
    /// seconds (`ssh-add -t`).
    case lifetime(seconds: UInt32)
    /// `SSH_AGENT_CONSTRAIN_CONFIRM` (2): ask the user before each use
    /// (`ssh-add -c`).
    case confirm
    /// `SSH_AGENT_CONSTRAIN_EXTENSION` (255)
    /// `restrict-destination-v00@openssh.com` (`ssh-add -h`, SPEC D8):
    /// where the key may be used.
    case destinations([KeyDestination])
    /// Any other `SSH_AGENT_CONSTRAIN_EXTENSION` (255), such as
    /// `sk-provider@openssh.com`; its data is not kept.
    case `extension`(name: String)
}
