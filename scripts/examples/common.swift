// What every fragment of the documentation assumes: the modules and the
// process environment (`env`).
import Foundation
import Sesame
import SesameLinux

let env = ProcessInfo.processInfo.environment
