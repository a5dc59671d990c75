// The cryptography Web Push and VAPID need, as thin calls into OpenSSL 3's EVP: P-256 keys and ECDH,
// ECDSA (ES256) verification, HKDF-SHA256, AES-128-GCM, SHA-256 and random bytes. Nothing here
// is hand-written cryptography: each function hands bytes to OpenSSL and reports what it said.
import COpenSSL

/// What OpenSSL refused, with its own reason where it gave one.
public struct CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    init(_ what: String) {
        var reason = ""
        var code = ERR_get_error()
        while code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            code = ERR_get_error()
        }
        message = reason.isEmpty ? what : "\(what) (\(reason))"
    }

    public var description: String { message }
}

/// A P-256 key held by OpenSSL: a receiver's key pair, or a sender's public key.
/// A class so the EVP_PKEY is freed exactly once; used on one thread (the run loop's, or a test's).
public final class P256Key {
    let pkey: OpaquePointer

    private init(_ pkey: OpaquePointer) { self.pkey = pkey }

    deinit { EVP_PKEY_free(pkey) }

    /// A fresh key pair from OpenSSL's generator.
    public static func generate() throws(CryptoError) -> P256Key {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw CryptoError("cannot make an EC key context") }
        defer { EVP_PKEY_CTX_free(context) }
        var pkey: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
              EVP_PKEY_generate(context, &pkey) == 1, let pkey else {
            throw CryptoError("cannot generate a P-256 key")
        }
        return P256Key(pkey)
    }

    /// A key pair from its private scalar (32 bytes) and uncompressed public point (65 bytes).
    public convenience init(privateScalar: [UInt8], publicKey: [UInt8]) throws(CryptoError) {
        guard privateScalar.count == 32 else { throw CryptoError("a P-256 private key is 32 bytes, not \(privateScalar.count)") }
        try self.init(fromData: publicKey, privateScalar: privateScalar)
    }

    /// A public key from its uncompressed point (`0x04 || x || y`, 65 bytes), as Web Push and VAPID send it.
    public convenience init(publicKey: [UInt8]) throws(CryptoError) {
        try self.init(fromData: publicKey, privateScalar: nil)
    }

    private convenience init(fromData publicKey: [UInt8], privateScalar: [UInt8]?) throws(CryptoError) {
        guard publicKey.count == 65, publicKey.first == 0x04 else {
            throw CryptoError("a P-256 public key is 65 bytes starting with 0x04 (uncompressed); got \(publicKey.count) bytes")
        }
        guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError("out of memory") }
        defer { OSSL_PARAM_BLD_free(builder) }
        var scalar: OpaquePointer?
        defer { if let scalar { BN_clear_free(scalar) } }
        if let privateScalar {
            scalar = privateScalar.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
            guard scalar != nil else { throw CryptoError("out of memory") }
        }
        let params = publicKey.withUnsafeBytes { point -> UnsafeMutablePointer<OSSL_PARAM>? in
            guard OSSL_PARAM_BLD_push_utf8_string(builder, cName("group"), cName("prime256v1"), 0) == 1,
                  OSSL_PARAM_BLD_push_octet_string(builder, cName("pub"), point.baseAddress, point.count) == 1,
                  scalar == nil || OSSL_PARAM_BLD_push_BN(builder, cName("priv"), scalar) == 1 else { return nil }
            return OSSL_PARAM_BLD_to_param(builder)
        }
        guard let params else { throw CryptoError("cannot describe the P-256 key") }
        defer { OSSL_PARAM_free(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw CryptoError("cannot make an EC key context") }
        defer { EVP_PKEY_CTX_free(context) }
        var pkey: OpaquePointer?
        let selection = privateScalar == nil ? shade_EVP_PKEY_PUBLIC_KEY() : shade_EVP_PKEY_KEYPAIR()
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &pkey, selection, params) == 1, let pkey else {
            throw CryptoError("not a P-256 key")
        }
        // fromdata takes any bytes for the point: a point off the curve is caught here, before ECDH.
        guard let check = EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil) else {
            EVP_PKEY_free(pkey)
            throw CryptoError("cannot check the P-256 key")
        }
        defer { EVP_PKEY_CTX_free(check) }
        guard (privateScalar == nil ? EVP_PKEY_public_check(check) : EVP_PKEY_pairwise_check(check)) == 1 else {
            EVP_PKEY_free(pkey)
            throw CryptoError(privateScalar == nil ? "the public key is not a point on P-256" : "the private key does not match the public key")
        }
        self.init(pkey)
    }

    /// The uncompressed public point, 65 bytes.
    public var publicKey: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 65)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(pkey, "encoded-pub-key", &bytes, bytes.count, &length) == 1 else { return [] }
        return Array(bytes.prefix(length))
    }

    /// The private scalar, 32 bytes big-endian (empty for a public key).
    public var privateScalar: [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pkey, "priv", &number) == 1, let number else { return [] }
        defer { BN_clear_free(number) }
        var bytes = [UInt8](repeating: 0, count: 32)
        guard BN_bn2binpad(number, &bytes, 32) == 32 else { return [] }
        return bytes
    }

    /// ECDH: the shared secret (the x coordinate, 32 bytes) of this private key and `peer`'s public key.
    public func sharedSecret(with peer: P256Key) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_PKEY_CTX_new(pkey, nil) else { throw CryptoError("cannot make an ECDH context") }
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer.pkey) == 1,
              EVP_PKEY_derive(context, nil, &length) == 1 else {
            throw CryptoError("ECDH refused the keys")
        }
        var secret = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_derive(context, &secret, &length) == 1 else { throw CryptoError("ECDH failed") }
        return Array(secret.prefix(length))
    }

    /// ES256 (RFC 7518 §3.4): whether `signature`, raw `r || s` (64 bytes) as a JWS carries it, is
    /// this public key's ECDSA P-256 SHA-256 signature of `message`. OpenSSL verifies DER, so the
    /// pair is re-encoded first.
    public func verifiesES256(signature: [UInt8], of message: [UInt8]) -> Bool {
        guard signature.count == 64, let der = Self.derSignature(signature) else { return false }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pkey) == 1 else { return false }
        return EVP_DigestVerify(context, der, der.count, message, message.count) == 1
    }

    static func derSignature(_ raw: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {   // set0 takes ownership of r and s
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }
}

/// A parameter name or fixed value for OSSL_PARAM_BLD, which keeps the pointer it is given until
/// `OSSL_PARAM_BLD_to_param`: a string literal's storage lives as long as the program.
private func cName(_ text: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}

public enum Crypto {
    /// HKDF-SHA256 (RFC 5869), extract and expand, from OpenSSL's "HKDF" KDF.
    public static func hkdf(salt: [UInt8], inputKey: [UInt8], info: [UInt8], length: Int) throws(CryptoError) -> [UInt8] {
        guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else { throw CryptoError("OpenSSL has no HKDF") }
        defer { EVP_KDF_free(kdf) }
        guard let context = EVP_KDF_CTX_new(kdf) else { throw CryptoError("cannot make an HKDF context") }
        defer { EVP_KDF_CTX_free(context) }
        guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError("out of memory") }
        defer { OSSL_PARAM_BLD_free(builder) }
        // The three inputs side by side in one buffer, which stays alive until `to_param` copies them.
        let params = (inputKey + info + salt).withUnsafeBytes { all -> UnsafeMutablePointer<OSSL_PARAM>? in
            let base = all.baseAddress!
            guard OSSL_PARAM_BLD_push_utf8_string(builder, cName("digest"), cName("SHA256"), 0) == 1,
                  OSSL_PARAM_BLD_push_octet_string(builder, cName("key"), base, inputKey.count) == 1,
                  OSSL_PARAM_BLD_push_octet_string(builder, cName("info"), base + inputKey.count, info.count) == 1,
                  // An empty salt is HKDF's default (zeros) anyway; OpenSSL wants none rather than an empty one.
                  salt.isEmpty || OSSL_PARAM_BLD_push_octet_string(builder, cName("salt"), base + inputKey.count + info.count, salt.count) == 1
            else { return nil }
            return OSSL_PARAM_BLD_to_param(builder)
        }
        guard let params else { throw CryptoError("cannot describe the HKDF input") }
        defer { OSSL_PARAM_free(params) }
        var output = [UInt8](repeating: 0, count: length)
        guard EVP_KDF_derive(context, &output, length, params) == 1 else { throw CryptoError("HKDF failed") }
        return output
    }

    /// AES-128-GCM decryption of `sealed` (the ciphertext followed by its 16-byte tag). nil when the
    /// tag does not match: the wrong key, or bytes changed on the way.
    public static func aes128gcmOpen(key: [UInt8], nonce: [UInt8], sealed: ArraySlice<UInt8>) -> [UInt8]? {
        guard key.count == 16, nonce.count == 12, sealed.count >= 16 else { return nil }
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        let ciphertext = Array(sealed.dropLast(16))
        var tag = Array(sealed.suffix(16))
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var length: Int32 = 0, final: Int32 = 0
        guard EVP_DecryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce) == 1,
              EVP_DecryptUpdate(context, &plaintext, &length, ciphertext, Int32(ciphertext.count)) == 1,
              EVP_CIPHER_CTX_ctrl(context, shade_EVP_CTRL_GCM_SET_TAG(), 16, &tag) == 1 else { return nil }
        let tail = plaintext.withUnsafeMutableBufferPointer { EVP_DecryptFinal_ex(context, $0.baseAddress! + Int(length), &final) }
        guard tail == 1 else { return nil }
        return Array(plaintext.prefix(Int(length + final)))
    }

    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil) == 1 else { return [] }
        return digest
    }

    /// Bytes from OpenSSL's CSPRNG.
    public static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else { throw CryptoError("no random bytes") }
        return bytes
    }
}

/// base64url without padding (RFC 4648 §5), as Web Push keys, VAPID keys and JWTs are written.
/// Decoding also takes padding and the standard alphabet, which some senders use.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            if rest == 2 { out.append(alphabet[Int(n >> 6 & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// nil when `text` is not base64 (a character outside both alphabets, or a dangling sixth of a byte).
    public static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? {
        var bits: UInt32 = 0, count = 0
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var padding = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") { padding = true; continue }
            guard !padding, let value = sextet(byte) else { return nil }
            bits = bits << 6 | UInt32(value)
            count += 6
            if count >= 8 {
                count -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
            }
        }
        return count >= 6 ? nil : out
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"), UInt8(ascii: "+"): 62
        case UInt8(ascii: "_"), UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
