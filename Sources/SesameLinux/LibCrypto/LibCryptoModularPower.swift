import CSesameLinux

/// Modular exponentiation by OpenSSL's libcrypto, opened with dlopen at the
/// first use (no build-time dependency, as with libpam and libsystemd).
///
/// swift-crypto exposes no big-number arithmetic, and a pure-Swift one
/// (attaswift/BigInt) is both about forty times slower and not constant-time.
/// `BN_mod_exp_mont_consttime` is what OpenSSL itself uses for private-key
/// exponents: its running time does not depend on the exponent's bits.
package enum LibCryptoModularPower {
    /// Whether libcrypto could be opened, or why not. Never blocks beyond the
    /// first `dlopen`.
    /// - Returns: `nil` when it is usable; otherwise the loader's reason.
    package static func unavailableReason() -> String? {
        var error = [CChar](repeating: 0, count: 256)
        if sesame_libcrypto_available(&error, error.count) == 1 { return nil }
        return String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `base^exponent mod modulus`, constant-time in the exponent.
    /// - Parameters:
    ///   - base: Unsigned big-endian.
    ///   - exponent: Unsigned big-endian; secret (cleared inside libcrypto
    ///     after use).
    ///   - modulus: Unsigned big-endian and odd.
    ///   - byteCount: The result's size: it is left-padded with zeros to this.
    ///   - body: Reads the result; the buffer is zeroed afterwards, as the
    ///     result may be a shared secret.
    /// - Returns: What `body` returns, or `nil` when libcrypto is missing or
    ///   refused the numbers (an even modulus, sizes over 4,096 bytes).
    package static func power<Result>(
        base: UnsafeRawBufferPointer, exponent: UnsafeRawBufferPointer, modulus: UnsafeRawBufferPointer,
        byteCount: Int, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result? {
        var output = [UInt8](repeating: 0, count: byteCount)
        defer { output.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        let status = output.withUnsafeMutableBufferPointer { out in
            sesame_libcrypto_mod_exp(
                base.baseAddress?.assumingMemoryBound(to: UInt8.self), base.count,
                exponent.baseAddress?.assumingMemoryBound(to: UInt8.self), exponent.count,
                modulus.baseAddress?.assumingMemoryBound(to: UInt8.self), modulus.count,
                out.baseAddress, out.count)
        }
        guard status == 0 else { return nil }
        return try output.withUnsafeBytes(body)
    }
}
