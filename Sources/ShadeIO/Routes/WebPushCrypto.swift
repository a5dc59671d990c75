// Decrypting what an application server sends a push service: RFC 8291 (Message Encryption for Web
// Push) over RFC 8188's `aes128gcm` content coding, and the older `aesgcm` coding of
// draft-ietf-webpush-encryption-04 that pywebpush and web-push still offer.
import ShadeCore

/// The browser's side of a subscription: its ECDH key pair (`p256dh`) and the 16-byte `auth` secret.
public struct WebPushReceiver {
    public let key: P256Key
    public let authSecret: [UInt8]

    public init(key: P256Key, authSecret: [UInt8]) {
        self.key = key
        self.authSecret = authSecret
    }
}

/// Why a body could not be decrypted, in words for the sender (a push service answers 400).
public struct WebPushDecryptionError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

public enum WebPushDecryption {
    static let tagLength = 16

    /// `aes128gcm`: the body starts with salt (16) · record size (4, big-endian) · key id length (1) ·
    /// key id (the sender's public key, 65 bytes); then records of `rs` bytes, each ending in its tag,
    /// the last one shorter. Each plaintext record ends in a delimiter (1, the last 2) and zero padding.
    public static func aes128gcm(_ body: [UInt8], receiver: WebPushReceiver) throws(WebPushDecryptionError) -> [UInt8] {
        guard body.count >= 21 else {
            throw WebPushDecryptionError("the aes128gcm body is \(body.count) bytes, shorter than its 21-byte header (RFC 8188 §2.1)")
        }
        let salt = Array(body[0..<16])
        let recordSize = body[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let idLength = Int(body[20])
        guard recordSize >= 18 else {
            throw WebPushDecryptionError("the aes128gcm record size is \(recordSize); RFC 8188 needs at least 18 (16 for the tag, 2 for data and delimiter)")
        }
        guard body.count >= 21 + idLength else {
            throw WebPushDecryptionError("the aes128gcm header names a \(idLength)-byte key id, but the body ends after \(body.count - 21)")
        }
        let senderKey = try senderPublicKey(Array(body[21..<(21 + idLength)]), where: "the aes128gcm key id (RFC 8291 §4)")
        let ecdh = try derive { () throws(CryptoError) in try receiver.key.sharedSecret(with: senderKey) }
        // RFC 8291 §3.3, §3.4: the auth secret and both public keys go into the key material.
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiver.key.publicKey + senderKey.publicKey
        let (key, nonce) = try derive { () throws(CryptoError) in
            let ikm = try Crypto.hkdf(salt: receiver.authSecret, inputKey: ecdh, info: keyInfo, length: 32)
            return (try Crypto.hkdf(salt: salt, inputKey: ikm, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16),
                    try Crypto.hkdf(salt: salt, inputKey: ikm, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12))
        }
        let records = body[(21 + idLength)...]
        guard !records.isEmpty else { throw WebPushDecryptionError("the aes128gcm body has a header and no record") }
        var plaintext: [UInt8] = []
        var start = records.startIndex
        var counter: UInt64 = 0
        while start < records.endIndex {
            let end = min(Checked.add(start, recordSize), records.endIndex)
            let isLast = end == records.endIndex
            guard let opened = Crypto.aes128gcmOpen(key: key, nonce: recordNonce(nonce, counter), sealed: records[start..<end]) else {
                throw WebPushDecryptionError(counter == 0
                    ? "cannot decrypt: the authentication tag does not match — encrypted for another subscription's keys (p256dh, auth), or changed on the way"
                    : "cannot decrypt record \(counter + 1): its authentication tag does not match")
            }
            // RFC 8188 §2: the last non-zero byte is the delimiter; zeros after it are padding.
            guard let delimiter = opened.lastIndex(where: { $0 != 0 }) else {
                throw WebPushDecryptionError("record \(counter + 1) is all padding: it has no delimiter (RFC 8188 §2)")
            }
            switch (opened[delimiter], isLast) {
            case (2, true), (1, false): break
            case (1, true):
                throw WebPushDecryptionError("the body ends after record \(counter + 1), whose delimiter (1) says more records follow: truncated (RFC 8188 §2)")
            case (2, false):
                throw WebPushDecryptionError("record \(counter + 1) has the last record's delimiter (2) but more records follow (RFC 8188 §2)")
            default:
                throw WebPushDecryptionError("record \(counter + 1) ends in \(opened[delimiter]), not a delimiter (1 or 2) followed by zero padding (RFC 8188 §2)")
            }
            plaintext += opened[..<delimiter]
            start = end
            counter += 1
        }
        return plaintext
    }

    /// `aesgcm`: the salt and record size come in `Encryption: salt=…;rs=…`, the sender's key in
    /// `Crypto-Key: dh=…`. Records of `rs` plaintext bytes (+16 tag), each starting with a 2-byte
    /// padding length and that many zeros; the last record is shorter than a full one.
    public static func aesgcm(_ body: [UInt8], salt: [UInt8], recordSize: Int, senderKey bytes: [UInt8],
                              receiver: WebPushReceiver) throws(WebPushDecryptionError) -> [UInt8] {
        guard salt.count == 16 else { throw WebPushDecryptionError("the Encryption header's salt is \(salt.count) bytes; aesgcm needs 16") }
        guard recordSize > 2 else { throw WebPushDecryptionError("the Encryption header's rs is \(recordSize); aesgcm needs more than 2") }
        let senderKey = try senderPublicKey(bytes, where: "Crypto-Key dh")
        let ecdh = try derive { () throws(CryptoError) in try receiver.key.sharedSecret(with: senderKey) }
        func lengthPrefixed(_ key: [UInt8]) -> [UInt8] { [UInt8(key.count >> 8), UInt8(key.count & 0xFF)] + key }
        let context = Array("P-256".utf8) + [0] + lengthPrefixed(receiver.key.publicKey) + lengthPrefixed(senderKey.publicKey)
        let (key, nonce) = try derive { () throws(CryptoError) in
            let ikm = try Crypto.hkdf(salt: receiver.authSecret, inputKey: ecdh, info: Array("Content-Encoding: auth".utf8) + [0], length: 32)
            return (try Crypto.hkdf(salt: salt, inputKey: ikm, info: Array("Content-Encoding: aesgcm".utf8) + [0] + context, length: 16),
                    try Crypto.hkdf(salt: salt, inputKey: ikm, info: Array("Content-Encoding: nonce".utf8) + [0] + context, length: 12))
        }
        let chunk = Checked.add(recordSize, tagLength)   // rs is the sender's number: no overflow
        guard !body.isEmpty, body.count % chunk != 0 else {
            throw WebPushDecryptionError("the aesgcm body is \(body.count) bytes: its last record must be shorter than rs + 16 = \(chunk) (truncated?)")
        }
        var plaintext: [UInt8] = []
        var start = 0
        var counter: UInt64 = 0
        while start < body.count {
            let end = min(Checked.add(start, chunk), body.count)
            guard let opened = Crypto.aes128gcmOpen(key: key, nonce: recordNonce(nonce, counter), sealed: body[start..<end]) else {
                throw WebPushDecryptionError(counter == 0
                    ? "cannot decrypt: the authentication tag does not match — encrypted for another subscription's keys (p256dh, auth), or changed on the way"
                    : "cannot decrypt record \(counter + 1): its authentication tag does not match")
            }
            guard opened.count >= 2 else { throw WebPushDecryptionError("record \(counter + 1) is too short for its padding length") }
            let padding = Int(opened[0]) << 8 | Int(opened[1])
            guard 2 + padding <= opened.count, opened[2..<(2 + padding)].allSatisfy({ $0 == 0 }) else {
                throw WebPushDecryptionError("record \(counter + 1) has bad padding: \(padding) zero bytes announced")
            }
            plaintext += opened[(2 + padding)...]
            start = end
            counter += 1
        }
        return plaintext
    }

    /// RFC 8188 §2.3: each record's nonce is the base nonce XOR its sequence number (big-endian, right-aligned).
    static func recordNonce(_ base: [UInt8], _ counter: UInt64) -> [UInt8] {
        var nonce = base
        for i in 0..<8 { nonce[11 - i] ^= UInt8(truncatingIfNeeded: counter >> (8 * UInt64(i))) }
        return nonce
    }

    static func senderPublicKey(_ bytes: [UInt8], where place: String) throws(WebPushDecryptionError) -> P256Key {
        do {
            return try P256Key(publicKey: bytes)
        } catch {
            throw WebPushDecryptionError("\(place) is not the sender's P-256 public key: \(error.message)")
        }
    }

    private static func derive<T>(_ body: () throws(CryptoError) -> T) throws(WebPushDecryptionError) -> T {
        do { return try body() } catch { throw WebPushDecryptionError("cannot derive the content key: \(error.message)") }
    }
}
