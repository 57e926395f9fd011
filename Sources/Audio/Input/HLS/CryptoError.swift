import CCrypto
import PrintableText

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
        return "\(function) failed: \(String(nulTerminated: buffer))"
    }
}
