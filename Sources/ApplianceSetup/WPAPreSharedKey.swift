import CCrypto

/// WPA2's pre-shared key: what wpa_supplicant is given instead of the passphrase, so the passphrase is never
/// stored on the radio.
public enum WPAPreSharedKey {
    /// IEEE 802.11i's derivation, PBKDF2-HMAC-SHA1(passphrase, SSID, 4096 iterations, 32 bytes), through
    /// OpenSSL's `PKCS5_PBKDF2_HMAC_SHA1`. Any thread.
    /// - Precondition: the passphrase is 8 to 63 ASCII characters and the SSID 1 to 32 bytes (``SetupRules``).
    public static func derive(passphrase: String, ssid: [UInt8]) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: 32)
        let password = Array(passphrase.utf8)
        let done = password.withUnsafeBufferPointer { password in
            password.withMemoryRebound(to: CChar.self) { password in
                PKCS5_PBKDF2_HMAC_SHA1(password.baseAddress, Int32(password.count), ssid, Int32(ssid.count), 4096,
                                       Int32(key.count), &key)
            }
        }
        // It fails only when it cannot allocate, which the radio would not survive anyway.
        precondition(done == 1, "PKCS5_PBKDF2_HMAC_SHA1 failed")
        return key
    }
}
