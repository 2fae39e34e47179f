/// The one Python every test and harness runs.
///
/// Always Debian's `/usr/bin/python3`, never the first `python3` on `PATH`:
/// on a CI machine that may be another interpreter (a pyenv shim in root's
/// home) without the modules `.ci/run` installed (python-fido2,
/// secretstorage, paramiko, dbusmock), and a test that ran it would fail
/// there and pass on a machine where someone installed them by hand.
/// `.ci/run` installs for exactly this interpreter.
public enum TestPython {
    /// `/usr/bin/python3`.
    public static let path = "/usr/bin/python3"
}
