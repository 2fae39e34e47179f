/// Comparisons whose running time does not depend on where inputs differ.
package enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes. Only the lengths leak.
    package static func equals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<lhs.count {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }

    /// Whether two byte sequences are equal. Only the lengths leak.
    package static func equals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        Array(lhs).withUnsafeBytes { left in
            Array(rhs).withUnsafeBytes { right in equals(left, right) }
        }
    }
}
