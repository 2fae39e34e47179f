// read-item NAME: writes the value of the item NAME that `sesame put NAME`
// stored in the user's default vault ($SESAME_VAULT; a device key sealed to
// the TPM at $SESAME_TPM_TCTI is used as sesame uses it). It prompts on the
// terminal only when standard input is one; otherwise it fails with the
// library's message where a prompt would be needed.
import Glibc
import Sesame
import SesameLinux

func fail(_ message: String, status: Int32) -> Never {
    _ = Array("read-item: \(message)\n".utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(status)
}
guard CommandLine.arguments.count == 2 else { fail("usage: read-item NAME", status: 2) }
let name = CommandLine.arguments[1]
do {
    let machine = try LinuxMachine(appName: "read-item")
    let vault = try await machine.openVault()
    let value = try await vault.items.read(service: "sesame", account: name, operationPrompt: "Read \(name)", context: machine.context())
    _ = value.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
} catch {
    fail("\(error)", status: 1)
}
