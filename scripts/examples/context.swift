// The context the first example builds.
let context = AuthenticationContext(authenticators)
