/// Bytes from hex text, for known answers checked in as hex. Traps on a
/// malformed constant: that is a typo in a test, not a result.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace }.utf8)
    precondition(digits.count.isMultiple(of: 2), "odd number of hex digits")
    return stride(from: 0, to: digits.count, by: 2).map { index in
        UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16)!  // !: a malformed constant is a typo in the test
    }
}

extension Collection<UInt8> {
    /// Lower-case hex, so a failed comparison shows bytes that can be read.
    var hexString: String {
        map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
