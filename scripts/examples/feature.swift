// The app's own sign-in, for feature protection's owner verification.
@Sendable func signInAgain(_ reason: String) async -> Bool { false }
