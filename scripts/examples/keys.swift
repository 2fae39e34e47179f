// An open vault and the inputs of the key operations.
let vault = try await Vault.open(at: Vault.defaultPath(environment: env), unlock: .device(), authenticators: authenticators)
let data: [UInt8] = Array("release v1.0".utf8)
let commits: [[UInt8]] = [data]
let ciphertext: [UInt8] = []
let peerKey = try PublicKey(algorithm: .x25519, rawRepresentation: [UInt8](repeating: 9, count: 32))
