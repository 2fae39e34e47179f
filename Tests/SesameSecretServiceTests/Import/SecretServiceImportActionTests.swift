import Sesame
import SesameSecretService
import Testing

/// How an item of another provider maps onto the vault's items of equal
/// attributes: copied, copied in place of an earlier copy, or the owner's
/// protected item kept (SPEC D11).
@Suite("SecretServiceImportAction: copy, replace an earlier copy, keep a protected item")
struct SecretServiceImportActionTests {
    private let attributes = ["service": "mail", "user": "alice"]

    @Test("D11: with no equal item the source's item is copied")
    func copy() {
        #expect(SecretServiceImportAction.action(forItemWith: attributes, candidates: []) == .copy)
        // Found by the search but not equal (another attribute more): not the same item.
        let wider = ["service": "mail", "user": "alice", "server": "imap"]
        #expect(SecretServiceImportAction.action(
            forItemWith: attributes, candidates: [("other", wider, Vault.noAccessControl)]) == .copy)
    }

    @Test("D11: an equal item open to anyone (an earlier copy) is replaced")
    func replace() {
        #expect(SecretServiceImportAction.action(
            forItemWith: attributes, candidates: [("mail", attributes, Vault.noAccessControl)]) == .replace)
    }

    @Test("D11: an equal item the owner protected is kept, and named with its access control")
    func keep() {
        let action = SecretServiceImportAction.action(forItemWith: attributes, candidates: [
            ("copy", attributes, Vault.noAccessControl), ("mine", attributes, .biometryAny),
        ])
        #expect(action == .keep(label: "mine", accessControl: .biometryAny))
    }

    @Test("D11: libsecret's generic schema name is set aside when comparing, on either side")
    func genericSchema() {
        let generic = attributes.merging(["xdg:schema": "org.freedesktop.Secret.Generic"]) { $1 }
        #expect(SecretServiceImportAction.withoutGenericSchema(generic) == attributes)
        #expect(SecretServiceImportAction.action(
            forItemWith: generic, candidates: [("mail", attributes, .devicePasscode)]) == .keep(label: "mail", accessControl: .devicePasscode))
        #expect(SecretServiceImportAction.action(
            forItemWith: attributes, candidates: [("mail", generic, Vault.noAccessControl)]) == .replace)
        // Another schema names another kind of item.
        let other = attributes.merging(["xdg:schema": "org.gnome.keyring.Note"]) { $1 }
        #expect(SecretServiceImportAction.withoutGenericSchema(other) == other)
        #expect(SecretServiceImportAction.action(
            forItemWith: other, candidates: [("mail", attributes, Vault.noAccessControl)]) == .copy)
    }
}
