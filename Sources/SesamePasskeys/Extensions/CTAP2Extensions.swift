import Sesame

/// The extensions this authenticator supports: the one place that names
/// them. getInfo lists them; makeCredential and getAssertion hand each its
/// input; anything else in a request's extension map is ignored, as CTAP
/// 2.1 §12 asks of an extension an authenticator does not support.
enum CTAP2Extensions {
    /// Every supported extension, in getInfo's order.
    static let all: [any CTAP2Extension] = [CredProtectExtension(), HMACSecretExtension()]

    /// getInfo's `extensions` (§6.4).
    static var identifiers: [String] { all.map(\.identifier) }

    /// makeCredential's extension inputs, each parsed by its extension;
    /// the decisions by identifier.
    static func registrations(_ inputs: CTAP2Parameters?) throws(CTAP2Status) -> [String: CTAP2ExtensionRegistration] {
        var registrations: [String: CTAP2ExtensionRegistration] = [:]
        for item in all {
            guard let input = inputs?.map[.text(item.identifier)], let registration = try item.register(input) else { continue }
            registrations[item.identifier] = registration
        }
        return registrations
    }

    /// Overwrites the registrations' secrets, once the store has kept them:
    /// dropped from the registration first, the copy left is the last one.
    static func wipeSecrets(_ registrations: inout [String: CTAP2ExtensionRegistration]) {
        for identifier in Array(registrations.keys) {
            guard var secret = registrations[identifier]?.secret else { continue }
            registrations[identifier]?.secret = nil
            wipe(&secret)
        }
    }

    /// getAssertion's extension inputs, each parsed by its extension, in
    /// ``all``'s order.
    static func assertionRequests(_ inputs: CTAP2Parameters?, offer: CTAP2ExtensionOffer) throws(CTAP2Status)
        -> [(identifier: String, request: any CTAP2ExtensionAssertion)]
    {
        var requests: [(identifier: String, request: any CTAP2ExtensionAssertion)] = []
        for item in all {
            guard let input = inputs?.map[.text(item.identifier)], let request = try item.assertionRequest(input, offer: offer) else { continue }
            requests.append((item.identifier, request))
        }
        return requests
    }

    /// Whether every extension lets a getAssertion use or name `credential`.
    static func permit(_ credential: PasskeyCredential, userVerificationAsked: Bool, credentialNamed: Bool) -> Bool {
        all.allSatisfy { item in
            item.permits(state: credential.creation.extensions[item.identifier], userVerificationAsked: userVerificationAsked,
                         credentialNamed: credentialNamed)
        }
    }

    /// The extensions' fields of `credential` in enumerateCredentials.
    static func credentialManagementFields(of credential: PasskeyCredential) -> [CBORValue: CBORValue] {
        all.reduce(into: [:]) { fields, item in
            fields.merge(item.credentialManagementFields(state: credential.creation.extensions[item.identifier])) { first, _ in first }
        }
    }
}
