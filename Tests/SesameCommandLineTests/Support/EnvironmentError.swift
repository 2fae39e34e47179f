/// The test machine cannot do what a test needs, or a session misbehaved.
struct EnvironmentError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
