import Testing
@testable import ShadeIO

// Web Push decryption (RFC 8291 over RFC 8188, and the older aesgcm) against published and
// independently made ciphertexts. Every key and body below is base64url.

/// RFC 8291 §5 (Appendix A): the user agent's keys and the message an application server sent it.
enum RFC8291Example {
    static let receiverPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let receiverPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
    static let senderPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    static let body = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    static let plaintext = "When I grow up, I want to be a watermelon"

    static func receiver() throws -> WebPushReceiver {
        WebPushReceiver(key: try P256Key(privateScalar: b64(receiverPrivate), publicKey: b64(receiverPublic)),
                        authSecret: b64(authSecret))
    }
}

/// The same plaintext, keys and salt encrypted by Python's http_ece 1.2.1 (what pywebpush calls):
/// as `aesgcm`, and as `aes128gcm` in records of 25 bytes (six records, the last one short).
enum HTTPECEVectors {
    static let aesgcm = "4qwOLFm_mNy0vf1A8f3Bm6B5UD15y3aV_xZy14pixUhcPTIoZKHzq5i3dZ6PzqSMxBI_-VDUZ4jW04M"
    static let aes128gcmSmallRecords = "DGv6ra1nlYgDCS1FRnbzlwAAABlBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cSDw1PQK_onN6nhX57A3AzfiefTyE17OaXie1D5tykhqZvqKd_1w_CGCTwe-v-UX6UYuoUfin3lGQWBeSGnx17v0urhOkCzsDpGjZoD2Gf9HqekeXyVvkhhULOoLxPjcTcf42fDJP7Lb4B5U8T1w8vALIVY9BAYf4fcYUcVXVrsM7FI6NeWWKg"
}

func b64(_ base64url: String) -> [UInt8] { Base64URL.decode(base64url)! }

@Test func rfc8291Section5ExampleDecryptsToItsPlaintext() throws {
    let plaintext = try WebPushDecryption.aes128gcm(b64(RFC8291Example.body), receiver: try RFC8291Example.receiver())
    #expect(String(decoding: plaintext, as: UTF8.self) == RFC8291Example.plaintext)
}

@Test func aes128gcmHonoursRecordSizeAcrossSeveralRecords() throws {
    let body = b64(HTTPECEVectors.aes128gcmSmallRecords)
    #expect(body[16..<20] == [0, 0, 0, 25])
    let plaintext = try WebPushDecryption.aes128gcm(body, receiver: try RFC8291Example.receiver())
    #expect(String(decoding: plaintext, as: UTF8.self) == RFC8291Example.plaintext)
}

@Test func aes128gcmWithoutItsLastRecordIsTruncated() throws {
    let body = b64(HTTPECEVectors.aes128gcmSmallRecords)
    // 21 + 65 header bytes, five full records of 25, and a last one of 18: drop the last.
    #expect((body.count - 86) % 25 == 18)
    #expect(throws: WebPushDecryptionError("the body ends after record 5, whose delimiter (1) says more records follow: truncated (RFC 8188 §2)")) {
        try WebPushDecryption.aes128gcm(Array(body.dropLast(18)), receiver: try RFC8291Example.receiver())
    }
}

@Test func aesgcmWithTheEncryptionAndCryptoKeyHeadersDecrypts() throws {
    let plaintext = try WebPushDecryption.aesgcm(b64(HTTPECEVectors.aesgcm), salt: b64(RFC8291Example.salt), recordSize: 4096,
                                                 senderKey: b64(RFC8291Example.senderPublic), receiver: try RFC8291Example.receiver())
    #expect(String(decoding: plaintext, as: UTF8.self) == RFC8291Example.plaintext)
}

@Test func anotherSubscriptionsKeysCannotDecrypt() throws {
    let stranger = WebPushReceiver(key: try P256Key.generate(), authSecret: try Crypto.randomBytes(16))
    #expect(throws: WebPushDecryptionError("cannot decrypt: the authentication tag does not match — encrypted for another subscription's keys (p256dh, auth), or changed on the way")) {
        try WebPushDecryption.aes128gcm(b64(RFC8291Example.body), receiver: stranger)
    }
    // The right key but another auth secret: the same refusal.
    let wrongAuth = WebPushReceiver(key: try RFC8291Example.receiver().key, authSecret: Array(repeating: 7, count: 16))
    #expect(throws: WebPushDecryptionError.self) { try WebPushDecryption.aes128gcm(b64(RFC8291Example.body), receiver: wrongAuth) }
}

@Test(arguments: [
    ([UInt8](repeating: 0, count: 20), "the aes128gcm body is 20 bytes, shorter than its 21-byte header (RFC 8188 §2.1)"),
    ([UInt8](repeating: 0, count: 16) + [0, 0, 0, 17, 0], "the aes128gcm record size is 17; RFC 8188 needs at least 18 (16 for the tag, 2 for data and delimiter)"),
    ([UInt8](repeating: 0, count: 16) + [0, 0, 16, 0, 65] + [4, 1], "the aes128gcm header names a 65-byte key id, but the body ends after 2"),
    ([UInt8](repeating: 0, count: 16) + [0, 0, 16, 0, 3, 1, 2, 3] + [UInt8](repeating: 0, count: 20),
     "the aes128gcm key id (RFC 8291 §4) is not the sender's P-256 public key: a P-256 public key is 65 bytes starting with 0x04 (uncompressed); got 3 bytes"),
])
func malformedAES128GCMHeadersSayWhatIsWrong(body: [UInt8], message: String) throws {
    #expect(throws: WebPushDecryptionError(message)) { try WebPushDecryption.aes128gcm(body, receiver: try RFC8291Example.receiver()) }
}

@Test func aPointOffTheCurveIsRefusedBeforeECDH() throws {
    var point = b64(RFC8291Example.senderPublic)
    point[64] ^= 1
    #expect(throws: CryptoError.self) { try P256Key(publicKey: point) }
}

@Test func keysRoundTripThroughTheirRawBytes() throws {
    let key = try P256Key.generate()
    let again = try P256Key(privateScalar: key.privateScalar, publicKey: key.publicKey)
    #expect(again.publicKey == key.publicKey)
    #expect(key.publicKey.count == 65 && key.publicKey[0] == 4)
    #expect(try RFC8291Example.receiver().key.publicKey == b64(RFC8291Example.receiverPublic))
    // A scalar that is not the point's: refused.
    #expect(throws: CryptoError.self) { try P256Key(privateScalar: key.privateScalar, publicKey: b64(RFC8291Example.receiverPublic)) }
}

@Test(arguments: [
    ("", [UInt8]()), ("AA", [0]), ("AAE", [0, 1]), ("AAEC", [0, 1, 2]), ("-_8", [0xFB, 0xFF]), ("+/8=", [0xFB, 0xFF]),
])
func base64URLDecodesBothAlphabetsWithOrWithoutPadding(text: String, expected: [UInt8]) {
    #expect(Base64URL.decode(text) == expected)
    if !text.contains("=") && !text.contains("+") { #expect(Base64URL.encode(expected) == text) }
}

@Test func base64URLRefusesWhatIsNotBase64() {
    #expect(Base64URL.decode("A") == nil)      // a dangling sixth of a byte
    #expect(Base64URL.decode("AA*A") == nil)
    #expect(Base64URL.decode("AA=A") == nil)   // data after padding
}

@Test func anAesgcmRecordSizeAsLargeAsItCanBeWrittenDoesNotOverflow() throws {
    // rs=9223372036854775807 (and beyond, saturating): one record, decrypted as such.
    let plaintext = try WebPushDecryption.aesgcm(b64(HTTPECEVectors.aesgcm), salt: b64(RFC8291Example.salt), recordSize: Int.max,
                                                 senderKey: b64(RFC8291Example.senderPublic), receiver: try RFC8291Example.receiver())
    #expect(String(decoding: plaintext, as: UTF8.self) == RFC8291Example.plaintext)
}
