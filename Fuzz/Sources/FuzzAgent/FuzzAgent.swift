// libFuzzer target for the ssh-agent wire codec (`SSHAgentRequest.parse`,
// `SSHAgentFrame.bodyLength`), which reads whatever a process that can reach
// the agent's socket writes.
//
// The input is one message body (the type byte and its contents, without
// the 4-byte length); its first 4 bytes are also read as a frame header.
// Any result is fine except a crash, a hang or a sanitizer report; the
// harness checks what the codec promises: a refused header or body is
// `empty`, `tooLong` or `malformed`, a header's length is within bounds,
// and a parsed key is 32 bytes of the algorithm it claims.
#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
import Sesame
import SesameSSH

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAgent(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    if body.count >= 4, let length = try? SSHAgentFrame.bodyLength(header: Array(body[..<4])) {
        precondition(length > 0 && length <= SSHAgentRequest.maximumLength)
    }
    do throws(SSHAgentProtocolError) {
        switch try SSHAgentRequest.parse(body) {
        case .addIdentity(let key, _, _):
            precondition(key.publicKey.algorithm == key.algorithm && key.algorithm.purpose == .signing)
            precondition(key.algorithm.rsaBits != nil || key.privateKey.count == [KeyAlgorithm.p384: 48, .p521: 66][key.algorithm, default: 32])
        case .sign(let blob, _, _):
            _ = SSHSignature.publicKey(fromBlob: blob)
        case .removeIdentity(let blob):
            _ = SSHSignature.publicKey(fromBlob: blob)
        default:
            break
        }
    } catch {
        if case .tooLong = error { precondition(body.count > SSHAgentRequest.maximumLength) }
        if case .empty = error { precondition(body.isEmpty) }
    }
    return 0
}

@_cdecl("FuzzAgent_main")
public func fuzzAgentMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { data, size in fuzzAgent(data, size) }
}
