// libFuzzer target for what a Secret Service client sends Sesame's server
// (issue 25): values sealed under a DH session (arbitrary IV and ciphertext
// under a key) and attribute maps.
//
// The first byte picks the case. 0: a 16-byte key, an IV whose length is the
// next byte (mod 40), the rest the value; opening may fail but never crash,
// and what opens seals and opens back to itself. 1: the rest is NUL-separated
// names and values; the decoded map keeps each name's last value and refuses
// more than the limit.
#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
import Sesame
import SesameSecretService

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSecretService(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let mode = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    if mode % 2 == 0 {
        guard rest.count >= 17 else { return 0 }
        let key = SecretBytes(rest[0..<16])
        let ivLength = min(Int(rest[16]) % 40, rest.count - 17)
        let iv = SecretBytes(rest[17..<(17 + ivLength)])
        let value = SecretBytes(rest[(17 + ivLength)...])
        if let opened = try? SecretServiceWireFormat.open(parameters: iv, value: value, aesKey: key) {
            precondition(iv.count == 16 && value.count % 16 == 0 && value.count > 0)
            let sealed = try! SecretServiceWireFormat.seal(opened, aesKey: key)
            let again = try! SecretServiceWireFormat.open(parameters: sealed.parameters, value: sealed.value, aesKey: key)
            precondition(again.constantTimeEquals(opened), "a sealed value does not open to itself")
        }
    } else {
        let fields = rest.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var entries: [(name: String, value: String)] = []
        var index = 0
        while index + 1 < fields.count {
            entries.append((fields[index], fields[index + 1]))
            index += 2
        }
        do {
            let map = try SecretServiceWireFormat.attributes(entries)
            precondition(map.count <= SecretServiceWireFormat.maximumAttributes)
            for (name, value) in map {
                precondition(entries.last { $0.name == name }?.value == value, "a repeated name must keep its last value")
            }
        } catch {
            precondition(Set(entries.map(\.name)).count > SecretServiceWireFormat.maximumAttributes)
        }
    }
    return 0
}

@_cdecl("FuzzSecretService_main")
public func fuzzSecretServiceMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzSecretService(data, size) }
}
