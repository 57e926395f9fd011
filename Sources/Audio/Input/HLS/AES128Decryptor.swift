import CCrypto

/// AES-128 in CBC mode with PKCS#7 padding, as HLS encrypts whole segments (`EXT-X-KEY:METHOD=AES-128`),
/// through OpenSSL's EVP interface (`EVP_aes_128_cbc`).
///
/// One decryptor holds one key; each ``decrypt(_:iv:)`` is a whole segment with its own IV.
/// Not thread-safe: owned by one thread (the HLS reader's).
public final class AES128Decryptor {
    private let context: OpaquePointer
    private let key: [UInt8]

    /// The key and IV length in bytes.
    public static let blockLength = 16

    /// - Throws: ``CryptoError`` when the key is not 16 bytes or OpenSSL cannot make a cipher context.
    public init(key: [UInt8]) throws {
        guard key.count == Self.blockLength else { throw CryptoError(function: "AES-128 key of \(key.count) bytes") }
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError.fromQueue(function: "EVP_CIPHER_CTX_new") }
        self.context = context
        self.key = key
    }

    deinit { EVP_CIPHER_CTX_free(context) }

    /// The plaintext of one encrypted segment.
    /// - Throws: ``CryptoError`` when the IV is not 16 bytes, or the ciphertext is not whole blocks or its
    ///   padding is wrong (a wrong key, a truncated segment).
    public func decrypt(_ ciphertext: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard iv.count == Self.blockLength else { throw CryptoError(function: "AES-128 IV of \(iv.count) bytes") }
        guard ciphertext.count % Self.blockLength == 0, let length = Int32(exactly: ciphertext.count) else {
            throw CryptoError(function: "AES-128 ciphertext of \(ciphertext.count) bytes")
        }
        guard EVP_DecryptInit_ex(context, EVP_aes_128_cbc(), nil, key, iv) == 1 else {
            throw CryptoError.fromQueue(function: "EVP_DecryptInit_ex")
        }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + Self.blockLength)
        var written: Int32 = 0
        var final: Int32 = 0
        let succeeded = plaintext.withUnsafeMutableBufferPointer { output -> Bool in
            guard EVP_DecryptUpdate(context, output.baseAddress, &written, ciphertext, length) == 1 else { return false }
            return EVP_DecryptFinal_ex(context, output.baseAddress! + Int(written), &final) == 1
        }
        guard succeeded else { throw CryptoError.fromQueue(function: "EVP_Decrypt (bad padding: wrong key or truncated)") }
        plaintext.removeSubrange(Int(written + final)...)
        return plaintext
    }

    /// The IV of a segment whose key names none: its media sequence number, big-endian, in 16 bytes (RFC 8216 §5.2).
    public static func iv(mediaSequence: Int64) -> [UInt8] {
        let value = UInt64(bitPattern: mediaSequence)
        return [UInt8](repeating: 0, count: 8) + (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}

/// A libcrypto call failed: the function, and OpenSSL's reason from its error queue when it left one.
public struct CryptoError: Error, CustomStringConvertible {
    /// What failed (the OpenSSL function, or the check that refused the input).
    public var function: String
    /// `ERR_get_error`'s packed code, 0 when OpenSSL queued none.
    public var code: UInt

    public init(function: String, code: UInt = 0) {
        self.function = function
        self.code = code
    }

    /// Takes the oldest error from this thread's OpenSSL queue and clears the rest.
    static func fromQueue(function: String) -> CryptoError {
        let error = CryptoError(function: function, code: ERR_get_error())
        ERR_clear_error()
        return error
    }

    public var description: String {
        guard code != 0 else { return "\(function) failed" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return "\(function) failed: \(String(cString: buffer))"
    }
}
