// The `sesame` command. Its commands live in the SesameCommandLine library,
// so that the fuzzers can drive the very same argument parsing.
import SesameCommandLine

await SesameCommand.runFromCommandLine()
