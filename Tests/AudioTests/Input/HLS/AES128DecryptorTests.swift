import Foundation
import WavedialTestSupport
import XCTest
@testable import Audio

final class AES128DecryptorTests: XCTestCase {
    private var folder: TemporaryDirectory!

    override func setUpWithError() throws { folder = try TemporaryDirectory(prefix: "wavedial-aes") }
    override func tearDown() { folder.remove() }

    /// `openssl enc -aes-128-cbc` (PKCS#7 padding) with `iv`, as an HLS packager encrypts a segment.
    private func opensslEncrypt(_ plain: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        let input = folder.url.appendingPathComponent("plain.bin")
        let output = folder.url.appendingPathComponent("cipher.bin")
        try Data(plain).write(to: input)
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        try TestMedia.run("openssl", ["enc", "-aes-128-cbc", "-K", hex(key), "-iv", hex(iv), "-in", input.path, "-out", output.path])
        return Array(try Data(contentsOf: output))
    }

    func testDecryptsWhatOpenSSLEncryptedWithTheTagsIVOrTheSequenceNumber() throws {
        let segment = Array(try Data(contentsOf: try TestMedia.hlsMedia(.transportStreamAAC, seconds: 2)))
        let key = (0..<16).map { UInt8($0 * 7 + 3) }
        let decryptor = try AES128Decryptor(key: key)
        let tagIV = (0..<16).map { UInt8(255 - $0) }
        XCTAssertTrue(try decryptor.decrypt(try opensslEncrypt(segment, key: key, iv: tagIV), iv: tagIV) == segment)
        let sequenceIV = AES128Decryptor.iv(mediaSequence: 0x0102_0304_0506_0708)
        XCTAssertEqual(sequenceIV, [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])
        for length in [0, 1, 15, 16, 17] {
            let plain = Array(segment.prefix(length))
            XCTAssertEqual(try decryptor.decrypt(try opensslEncrypt(plain, key: key, iv: sequenceIV), iv: sequenceIV), plain,
                           "\(length) bytes")
        }
    }

    func testWrongKeyTruncationAndBadSizesAreErrors() throws {
        let key = [UInt8](repeating: 1, count: 16)
        let iv = [UInt8](repeating: 2, count: 16)
        let cipher = try opensslEncrypt(Array("some plaintext that is long enough".utf8), key: key, iv: iv)
        XCTAssertThrowsError(try AES128Decryptor(key: [UInt8](repeating: 9, count: 16)).decrypt(cipher, iv: iv)) { error in
            XCTAssertTrue("\(error)".contains("EVP_Decrypt"), "\(error)")
        }
        XCTAssertThrowsError(try AES128Decryptor(key: key).decrypt(Array(cipher.dropLast()), iv: iv), "not whole blocks")
        XCTAssertThrowsError(try AES128Decryptor(key: key).decrypt(cipher, iv: [1, 2, 3]))
        XCTAssertThrowsError(try AES128Decryptor(key: [1, 2, 3]))
    }
}
