import ArgumentParser
import Sesame

/// `--device-key tpm|file`: the library's kinds, parsed by their names.
extension DeviceKeyKind: ExpressibleByArgument {}
