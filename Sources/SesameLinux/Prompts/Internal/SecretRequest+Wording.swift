#if os(Linux)
import Sesame

extension SecretRequest {
    /// The question a prompt shows, ending in ": ": the requester's own
    /// words, except where they name no secret. PAM's conversation asks
    /// "Password: " whatever the password is for; on its own it does not
    /// say that Sesame wants the login password, so it becomes the
    /// secret's name ("Login password: ").
    var question: String {
        var words = Substring(prompt)
        while let last = words.last, last == " " || last == ":" { words.removeLast() }
        let generic = ["", "password", "passcode", "pin", "passphrase"]
        let question = generic.contains(words.lowercased()) ? secretLabel : String(words)
        return question + ": "
    }

    /// The secret's name as a label, without its article: "Login password"
    /// for "your login password".
    var secretLabel: String {
        var name = Substring(secretName)
        for article in ["your ", "the ", "a ", "an "] where name.lowercased().hasPrefix(article) {
            name = name.dropFirst(article.count)
            break
        }
        guard let first = name.first else { return "Password" }
        return first.uppercased() + name.dropFirst()
    }

    /// A sentence naming the secret, for a dialog's description: "Enter
    /// your login password."
    var secretSentence: String {
        "Enter \(secretName)."
    }
}
#endif
