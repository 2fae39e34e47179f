extension Authenticators {
    /// The backends every platform starts from: the account's attempt
    /// record (``FileAttemptStore`` at ``FileAttemptStore/defaultPath(environment:)``),
    /// shared by every program of the account so that lockout and delays
    /// count once, and no sensor, passcode verifier or presenter. A
    /// platform's machine (`LinuxMachine`) adds its backends to it; a
    /// program with none still counts attempts with the others.
    ///
    /// - Parameters:
    ///   - appName: The application's name, shown on prompts.
    ///   - environment: Where `XDG_STATE_HOME` and `HOME` are read.
    /// - Returns: The authenticators.
    public static func account(appName: String, environment: [String: String]) -> Authenticators {
        Authenticators(appName: appName, attempts: FileAttemptStore(path: FileAttemptStore.defaultPath(environment: environment)))
    }
}
