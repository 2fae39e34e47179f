// libFuzzer target for what `sesame inject`, `run --env-file` and `read`
// parse: the input is a template (bytes), an env file (its UTF-8 reading)
// and a reference (the same reading). Parsing must give a value or its own
// ParseError, never crash or hang; every reference parsed must survive a
// round trip through its description; a template must render its text
// segments back byte for byte when every value is empty.
#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
import Sesame
import SesameSecretsInUse

func fuzzReferences(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    var references: [SecretReference] = []

    if let template = try? SecretTemplate(parsing: bytes, source: "fuzz") {
        references += template.references
        let empty = Dictionary(template.references.map { ($0, SecretBytes([UInt8]())) }, uniquingKeysWith: { first, _ in first })
        let text = template.segments.flatMap { segment -> [UInt8] in
            if case .text(let bytes) = segment { bytes } else { [] }
        }
        if template.render(empty) != text { fatalError("a template's text did not render back") }
    }
    if let file = try? EnvironmentFile(parsing: text, path: "fuzz") {
        for entry in file.entries {
            if !EnvironmentFile.isVariableName(entry.variable) { fatalError("accepted the variable \(entry.variable)") }
            if case .reference(let reference) = entry.value { references.append(reference) }
            if case .literal(let value) = entry.value, value.utf8.contains(0) { fatalError("accepted a NUL byte") }
        }
    }
    if let reference = try? SecretReference(parsing: text) { references.append(reference) }

    for reference in references {
        guard let again = try? SecretReference(parsing: reference.description), again == reference else {
            fatalError("\(reference.description) does not parse back to itself")
        }
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReferencesEntry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { fuzzReferences(data, size) }

@_cdecl("FuzzReferences_main")
public func fuzzReferencesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzReferences(data, size) }
}
