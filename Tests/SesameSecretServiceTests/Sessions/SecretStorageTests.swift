import Foundation
import SesameSecretService
import SesameTesting
import Testing

/// python3-secretstorage (its own client code, jeepney underneath) against
/// Sesame, through both session algorithms.
@Suite("Secret Service: python3-secretstorage, plain and DH sessions", .serialized,
       .enabled(if: SecretServiceFixture.missing.isEmpty, SecretServiceFixture.missingNote))
struct SecretStorageTests {
    /// Stores, finds, reads and deletes; `forcePlain` makes secretstorage's
    /// DH request name an unknown algorithm, so it falls back to `plain` as
    /// it does against a provider without DH.
    static func script(forcePlain: Bool) -> String {
        """
        import secretstorage, secretstorage.util as util
        \(forcePlain ? "util.ALGORITHM_DH = 'no-such-algorithm'" : "")
        conn = secretstorage.dbus_init()
        col = secretstorage.get_default_collection(conn)
        item = col.create_item('Web login', {'site': 'example.org', 'user': 'ana'}, b'se\\x00cret\\xff bytes')
        found = list(col.search_items({'site': 'example.org'}))
        print('found', len(found), found[0].get_label())
        print('secret', found[0].get_secret())
        print('attributes', sorted(found[0].get_attributes().items()))
        print('encrypted', found[0].session.encrypted)
        found[0].set_label('Renamed')
        print('label', item.get_label())
        item.delete()
        print('after delete', len(list(col.search_items({'site': 'example.org'}))))
        """
    }

    @Test("D10: DH session: store, find, read (bytes exactly), rename, delete")
    func dhSession() async throws {
        try await SecretServiceFixture.with { fixture in
            let result = try await fixture.python(Self.script(forcePlain: false))
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("found 1 Web login"), "\(result.output)")
            #expect(result.output.contains(#"secret b'se\x00cret\xff bytes'"#), "\(result.output)")
            #expect(result.output.contains("attributes [('site', 'example.org'), ('user', 'ana')]"), "\(result.output)")
            #expect(result.output.contains("encrypted True"), "\(result.output)")
            #expect(result.output.contains("label Renamed"), "\(result.output)")
            #expect(result.output.contains("after delete 0"), "\(result.output)")
        }
    }

    @Test("D10: plain session: store, find, read, rename, delete")
    func plainSession() async throws {
        try await SecretServiceFixture.with { fixture in
            let result = try await fixture.python(Self.script(forcePlain: true))
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains(#"secret b'se\x00cret\xff bytes'"#), "\(result.output)")
            #expect(result.output.contains("encrypted False"), "\(result.output)")
            #expect(result.output.contains("after delete 0"), "\(result.output)")
        }
    }

    @Test("D10: DH: the value on the bus is not the secret, and decrypts with secretstorage's own dhcrypto")
    func dhValueIsEncrypted() async throws {
        try await SecretServiceFixture.with { fixture in
            let script = PythonClient.prelude + """
                from secretstorage.dhcrypto import Session, int_to_bytes
                from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
                from cryptography.hazmat.primitives import padding
                s = Session()
                out, path = svc('OpenSession', 'sv', ('dh-ietf1024-sha256-aes128-cbc-pkcs7', ('ay', int_to_bytes(s.my_public_key))))
                print('server key bytes', len(out[1]))
                s.set_server_public_key(int.from_bytes(out[1], 'big'))
                iv = b'\\x01' * 16
                pad = padding.PKCS7(128).padder(); data = pad.update(b'the clear text') + pad.finalize()
                enc = Cipher(algorithms.AES(s.aes_key), modes.CBC(iv)).encryptor()
                value = enc.update(data) + enc.finalize()
                item, prompt = call(ROOT + '/aliases/default', 'org.freedesktop.Secret.Collection', 'CreateItem', 'a{sv}(oayays)b',
                    ({'org.freedesktop.Secret.Item.Label': ('s', 'L')}, (path, iv, value, 'text/plain'), False))
                (p, params, sealed, ctype), = call(item, 'org.freedesktop.Secret.Item', 'GetSecret', 'o', (path,))
                print('clear on the bus', b'the clear text' in sealed, len(params))
                dec = Cipher(algorithms.AES(s.aes_key), modes.CBC(params)).decryptor()
                unpad = padding.PKCS7(128).unpadder()
                print('decrypted', unpad.update(dec.update(sealed) + dec.finalize()) + unpad.finalize(), ctype)
                """
            let result = try await fixture.python(script)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("server key bytes 128"), "\(result.output)")
            #expect(result.output.contains("clear on the bus False 16"), "\(result.output)")
            #expect(result.output.contains("decrypted b'the clear text' text/plain"), "\(result.output)")
        }
    }

    @Test("D10: python3-keyring's SecretService backend sets, gets and deletes a password")
    func keyringBackend() async throws {
        try await SecretServiceFixture.with { fixture in
            let result = try await fixture.python("""
                from keyring.backends import SecretService
                k = SecretService.Keyring()
                print('priority', k.priority > 0)
                k.set_password('example.org', 'ana', 'kéyring pw')
                print('get', k.get_password('example.org', 'ana'))
                k.delete_password('example.org', 'ana')
                print('after delete', k.get_password('example.org', 'ana'))
                """)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("priority True"), "\(result.output)")
            #expect(result.output.contains("get kéyring pw"), "\(result.output)")
            #expect(result.output.contains("after delete None"), "\(result.output)")
        }
    }

    @Test("D10: a client's sessions close when it leaves the bus")
    func sessionClosedOnDisconnect() async throws {
        try await SecretServiceFixture.with { fixture in
            let result = try await fixture.python(PythonClient.prelude + """
                print(svc('OpenSession', 'sv', ('plain', ('s', '')))[1])
                print(svc('OpenSession', 'sv', ('plain', ('s', '')))[1])
                """)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("/org/freedesktop/secrets/session/"), "\(result.output)")
            for _ in 0..<3000 where await fixture.server.openSessionCount() != 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(await fixture.server.openSessionCount() == 0)
        }
    }
}
