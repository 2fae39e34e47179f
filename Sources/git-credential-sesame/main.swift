// `git-credential-sesame`: what git runs for `credential.helper=sesame`;
// the same command as `sesame git-credential`.
import SesameCommandLine

await SesameCommand.runFromCommandLine(["git-credential"] + CommandLine.arguments.dropFirst())
