import Crypto
import Sesame

extension CTAP2Authenticator {
    /// What getCredsMetadata gives as the room left: the vault has no fixed
    /// number of slots, so this is a stand-in large enough never to stop a
    /// client (§6.8.2 asks only for a maximum possible).
    static let remainingDiscoverableCredentials = 1000

    /// authenticatorCredentialManagement (CTAP 2.1 §6.8; 0x41 is its
    /// preview command, the same). Every subcommand that starts something
    /// needs a pinUvAuthToken with the `cm` permission over subCommand ‖
    /// subCommandParams. updateUserInformation answers
    /// `CTAP2_ERR_INVALID_SUBCOMMAND`: a stored passkey's user is changed by
    /// making it anew, never by a client. An enumeration is continued only
    /// by the `requester` that began it.
    func credentialManagement(_ parameters: CTAP2Parameters, from requester: CTAPHIDRequester?) async throws -> CBORValue? {
        let subCommand = try parameters.required(1, \.intValue)
        let subCommandParameters = try parameters.optionalMap(2)
        let pinUvAuthProtocol = try parameters.optional(3, \.intValue)
        let pinUvAuthParam = try parameters.optional(4, \.bytesValue)
        switch subCommand {
        case 0x03, 0x05:  // enumerateRPsGetNextRP, enumerateCredentialsGetNextCredential
            guard let pending = pendingEnumeration, pending.requester == requester else { throw CTAP2Status.notAllowed }
            guard pending.next == subCommand, let item = pending.items.first else {
                pendingEnumeration = nil
                throw CTAP2Status.notAllowed
            }
            pendingEnumeration = pending.items.count > 1
                ? (requester: requester, next: subCommand, items: Array(pending.items.dropFirst())) : nil
            return item
        case 0x01, 0x02, 0x04, 0x06, 0x07: break
        default: throw CTAP2Status.invalidSubcommand
        }
        if pendingEnumeration?.requester == requester { pendingEnumeration = nil }
        guard let pinUvAuthParam else { throw CTAP2Status.puatRequired }
        let message = [UInt8(subCommand)] + (subCommandParameters.map { CBORValue.map($0.map).encoded } ?? [])
        let token = try verifyToken(
            pinUvAuthParam, protocolNumber: pinUvAuthProtocol, message: message, permission: .credentialManagement,
            relyingPartyID: nil)
        let credentials = try await store.discoverableCredentials(relyingPartyID: token.relyingPartyID)
        switch subCommand {
        case 0x01:  // getCredsMetadata
            guard token.relyingPartyID == nil else { throw CTAP2Status.unauthorizedPermission }
            return .map([1: .int(credentials.count), 2: .int(Self.remainingDiscoverableCredentials)])
        case 0x02:  // enumerateRPsBegin
            guard token.relyingPartyID == nil else { throw CTAP2Status.unauthorizedPermission }
            var seen: Set<String> = [], relyingParties: [CBORValue] = []
            for credential in credentials where seen.insert(credential.creation.relyingPartyID).inserted {
                var rp: [CBORValue: CBORValue] = ["id": .text(credential.creation.relyingPartyID)]
                if let name = credential.creation.relyingPartyName { rp["name"] = .text(name) }
                relyingParties.append(.map([3: .map(rp), 4: .bytes(Self.hash(credential.creation.relyingPartyID))]))
            }
            return try startEnumeration(relyingParties, next: 0x03, totalKey: 5, for: requester)
        case 0x04:  // enumerateCredentialsBegin
            let rpIDHash = try subCommandParameters?.required(1, \.bytesValue)
            guard let rpIDHash else { throw CTAP2Status.missingParameter }
            let items = try credentials.filter { Self.hash($0.creation.relyingPartyID) == rpIDHash }.map { credential throws(CTAP2Status) in
                try Self.credentialItem(credential)
            }
            return try startEnumeration(items, next: 0x05, totalKey: 9, for: requester)
        case 0x06:  // deleteCredential
            let descriptor = try subCommandParameters?.requiredMap(2)
            guard let id = try descriptor?.required("id", \.bytesValue) else { throw CTAP2Status.missingParameter }
            guard let credential = credentials.first(where: { $0.id == id }) else { throw CTAP2Status.noCredentials }
            try await store.delete(credential)
            return nil
        default:  // updateUserInformation
            throw CTAP2Status.invalidSubcommand
        }
    }

    /// The first of `items` with their total under `totalKey`, keeping the
    /// rest for the subcommand `next` from `requester`; none is
    /// `CTAP2_ERR_NO_CREDENTIALS`.
    private func startEnumeration(_ items: [CBORValue], next: Int, totalKey: Int, for requester: CTAPHIDRequester?) throws(CTAP2Status)
        -> CBORValue
    {
        guard case .map(var first)? = items.first else { throw .noCredentials }
        first[.int(totalKey)] = .int(items.count)
        pendingEnumeration = items.count > 1 ? (requester: requester, next: next, items: Array(items.dropFirst())) : nil
        return .map(first)
    }

    /// A credential as enumerateCredentials answers it: user, credential
    /// id, public key and the extensions' fields (credProtect's level).
    private static func credentialItem(_ credential: PasskeyCredential) throws(CTAP2Status) -> CBORValue {
        var user: [CBORValue: CBORValue] = ["id": .bytes(credential.creation.userHandle)]
        if let name = credential.creation.userName { user["name"] = .text(name) }
        if let name = credential.creation.userDisplayName { user["displayName"] = .text(name) }
        var item = CTAP2Extensions.credentialManagementFields(of: credential)
        item[6] = .map(user)
        item[7] = .map(["id": .bytes(credential.id), "type": "public-key"])
        item[8] = try AuthenticatorData.coseKey(credential.publicKey, algorithm: credential.creation.algorithm)
        return .map(item)
    }

    /// SHA-256 of a relying party id (rpIDHash).
    static func hash(_ relyingPartyID: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(relyingPartyID.utf8)))
    }
}
