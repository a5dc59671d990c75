// The local certificate authority: made once per user (ca.pem, ca-key.pem in a private directory),
// trusted by the user's push code, and signing a leaf certificate for each host name a client asks for.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import COpenSSL

/// A failure to load, make or use the CA, worded for the person who has to fix it.
public struct CertificateError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// The message plus OpenSSL's own reason (its error queue is emptied).
    static func openSSL(_ what: String) -> CertificateError {
        CertificateError(what + OpenSSLErrors.drain())
    }
}

enum OpenSSLErrors {
    /// ": reason; reason" from OpenSSL's error queue (empty when it holds nothing), clearing it.
    static func drain() -> String {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            if reasons.count < 3 { reasons.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        }
        return reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; ")
    }
}

/// An EC P-256 key pair (an `EVP_PKEY *` owned by this object).
final class KeyPair {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }

    /// A fresh P-256 key: fast to make (a leaf per host costs microseconds) and accepted by every TLS client.
    static func generate() throws(CertificateError) -> KeyPair {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw .openSSL("cannot make a key") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
              EVP_PKEY_generate(context, &key) == 1, let key else {
            throw .openSSL("cannot make a P-256 key")
        }
        return KeyPair(taking: key)
    }

    static func fromPEM(_ pem: [UInt8], path: String) throws(CertificateError) -> KeyPair {
        let bio = MemoryBIO(pem)
        guard let key = PEM_read_bio_PrivateKey(bio.pointer, nil, nil, nil) else {
            throw .openSSL("\(path) holds no private key in PEM form — remove the CA directory to have Shade make a new CA")
        }
        return KeyPair(taking: key)
    }

    var pem: [UInt8] {
        let bio = MemoryBIO()
        PEM_write_bio_PrivateKey(bio.pointer, pointer, nil, nil, 0, nil, nil)
        return bio.contents
    }
}

/// An `X509 *` owned by this object.
final class Certificate {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { X509_free(pointer) }

    static func fromPEM(_ pem: [UInt8], path: String) throws(CertificateError) -> Certificate {
        let bio = MemoryBIO(pem)
        guard let certificate = PEM_read_bio_X509(bio.pointer, nil, nil, nil) else {
            throw .openSSL("\(path) holds no certificate in PEM form — remove the CA directory to have Shade make a new CA")
        }
        return Certificate(taking: certificate)
    }

    var pem: [UInt8] {
        let bio = MemoryBIO()
        PEM_write_bio_X509(bio.pointer, pointer)
        return bio.contents
    }

    /// The subject's common name, for messages and tests.
    var commonName: String? {
        guard let name = X509_get_subject_name(pointer) else { return nil }
        var text = [CChar](repeating: 0, count: 256)
        let count = X509_NAME_get_text_by_NID(name, NID_commonName, &text, Int32(text.count))
        return count < 0 ? nil : String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// An OpenSSL memory BIO: PEM text in and out without temporary files.
final class MemoryBIO {
    let pointer: OpaquePointer

    init(_ bytes: [UInt8] = []) {
        pointer = BIO_new(BIO_s_mem())
        if !bytes.isEmpty { _ = bytes.withUnsafeBytes { BIO_write(pointer, $0.baseAddress, Int32($0.count)) } }
    }

    deinit { BIO_free(pointer) }

    var contents: [UInt8] {
        let count = Int(BIO_ctrl_pending(pointer))
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { BIO_read(pointer, $0.baseAddress, Int32(count)) }
        return Array(bytes.prefix(max(0, Int(read))))
    }
}

/// Shade's CA: `ca.pem` and `ca-key.pem` (both 0600) in a 0700 directory, made at first use.
public final class CertificateAuthority {
    public let directory: String
    let certificate: Certificate
    let key: KeyPair

    public var certificatePath: String { DataDirectory.join(directory, "ca.pem") }
    public var keyPath: String { DataDirectory.join(directory, "ca-key.pem") }
    /// The system CA bundle plus Shade's CA, for tools that trust one file (`shade trust` writes it).
    public var bundlePath: String { DataDirectory.join(directory, "bundle.pem") }

    /// Ten years: a CA a developer trusted once should not expire under them.
    static let authorityDays = 3650
    /// Leaves live 397 days, the longest Apple's TLS clients accept for a server certificate.
    static let leafDays = 397

    private init(directory: String, certificate: Certificate, key: KeyPair) {
        self.directory = directory
        self.certificate = certificate
        self.key = key
    }

    /// Loads the CA in `directory`, or makes it when the directory holds none. Half a CA (one file of
    /// the two) is an error rather than silently replaced: the user may have trusted the old one.
    public static func loadOrCreate(directory: String) throws(CertificateError) -> CertificateAuthority {
        do {
            try PrivateFiles.directory(directory)
        } catch {
            throw CertificateError("cannot use the CA directory \(error.description)")
        }
        let certificatePath = DataDirectory.join(directory, "ca.pem")
        let keyPath = DataDirectory.join(directory, "ca-key.pem")
        let certificateBytes: [UInt8]?, keyBytes: [UInt8]?
        do {
            certificateBytes = try PrivateFiles.read(certificatePath)
            keyBytes = try PrivateFiles.read(keyPath)
        } catch {
            throw CertificateError("cannot read the CA: \(error.description)")
        }
        switch (certificateBytes, keyBytes) {
        case let (certificatePEM?, keyPEM?):
            let certificate = try Certificate.fromPEM(certificatePEM, path: certificatePath)
            let key = try KeyPair.fromPEM(keyPEM, path: keyPath)
            guard X509_check_private_key(certificate.pointer, key.pointer) == 1 else {
                _ = OpenSSLErrors.drain()
                throw CertificateError("\(keyPath) is not the key of \(certificatePath) — remove both to have Shade make a new CA")
            }
            return CertificateAuthority(directory: directory, certificate: certificate, key: key)
        case (nil, nil):
            let key = try KeyPair.generate()
            let certificate = try CertificateBuilder.authority(key: key, days: authorityDays)
            do {
                // The key first: a crash between the two leaves no certificate without its key.
                try PrivateFiles.write(key.pem, to: keyPath)
                try PrivateFiles.write(certificate.pem, to: certificatePath)
            } catch {
                throw CertificateError("cannot write the CA: \(error.description)")
            }
            return CertificateAuthority(directory: directory, certificate: certificate, key: key)
        case (nil, _?):
            throw CertificateError("\(keyPath) exists without \(certificatePath) — remove the key to have Shade make a new CA")
        case (_?, nil):
            throw CertificateError("\(certificatePath) exists without its key \(keyPath) — remove it to have Shade make a new CA")
        }
    }

    /// The CA certificate in PEM form (what `ca.pem` holds).
    public var certificatePEM: [UInt8] { certificate.pem }

    /// Writes `bundle.pem`: the system's trusted CAs (when `systemBundle` exists) followed by Shade's, so
    /// a tool that reads one bundle (`SSL_CERT_FILE`, `REQUESTS_CA_BUNDLE`) trusts both the real
    /// services it still calls and Shade. Returns whether a system bundle was included.
    @discardableResult
    public func writeBundle(systemBundle: String?) throws(CertificateError) -> Bool {
        var bytes: [UInt8] = []
        var included = false
        if let systemBundle, let system = try? InputFiles.read(systemBundle).bytes {
            bytes = system
            if bytes.last != 0x0A { bytes.append(0x0A) }
            included = true
        }
        bytes += Array("# Shade local CA (\(certificatePath))\n".utf8) + certificatePEM
        do {
            try PrivateFiles.write(bytes, to: bundlePath)
        } catch {
            throw CertificateError("cannot write the bundle: \(error.description)")
        }
        return included
    }
}

/// Leaf certificates for the names clients ask for (SNI), signed by the CA and kept for the session.
final class LeafCertificates {
    let authority: CertificateAuthority
    /// One key for every leaf: making a key is the slow part, and a simulator's leaves need not differ.
    let key: KeyPair
    private var cache: [String: Certificate] = [:]
    /// A client may send any SNI name; past this many, the cache starts over instead of growing.
    static let cacheLimit = 1024

    init(authority: CertificateAuthority) throws(CertificateError) {
        self.authority = authority
        key = try KeyPair.generate()
    }

    /// The certificate for `name` (a DNS name or an IP address); nil: the default one, for `localhost`,
    /// `127.0.0.1` and `::1`, which clients get when they send no name.
    func certificate(for name: String?) throws(CertificateError) -> Certificate {
        let key = name ?? ""
        if let cached = cache[key] { return cached }
        let subjectAlternativeNames: String
        let commonName: String
        if let name {
            commonName = name
            subjectAlternativeNames = HostName.isIPAddress(name) ? "IP:\(name)" : "DNS:\(name)"
        } else {
            commonName = "localhost"
            subjectAlternativeNames = "DNS:localhost,IP:127.0.0.1,IP:::1"
        }
        let certificate = try CertificateBuilder.leaf(commonName: commonName, subjectAlternativeNames: subjectAlternativeNames,
                                                      key: self.key, authority: authority, days: CertificateAuthority.leafDays)
        if cache.count >= Self.cacheLimit { cache.removeAll() }
        cache[key] = certificate
        return certificate
    }
}

/// Host names as Shade accepts them from a client (SNI, CONNECT): plain DNS names or IP addresses.
enum HostName {
    /// Whether `name` may be put into a certificate: letters, digits, `-`, `.`, `_` (and `:` for IPv6),
    /// at most 253 bytes. Anything else a client sends gets the default certificate.
    static func isAcceptable(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"): true
            default: false
            }
        }
    }

    static func isIPAddress(_ name: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }
}

/// X.509 certificates made with OpenSSL: the CA's own, and leaves it signs.
enum CertificateBuilder {
    static func authority(key: KeyPair, days: Int) throws(CertificateError) -> Certificate {
        let certificate = try base(key: key, days: days)
        let user = (getenv("USER") ?? getenv("LOGNAME")).map { String(cString: $0) } ?? "you"
        try setName(X509_get_subject_name(certificate.pointer), commonName: "Shade local CA (\(user))")
        X509_set_issuer_name(certificate.pointer, X509_get_subject_name(certificate.pointer))
        try addExtensions(certificate, issuer: certificate, [
            (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
            (NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature"),
            (NID_subject_key_identifier, "hash"),
            (NID_authority_key_identifier, "keyid:always"),
        ])
        try sign(certificate, with: key)
        return certificate
    }

    static func leaf(commonName: String, subjectAlternativeNames: String, key: KeyPair, authority: CertificateAuthority,
                     days: Int) throws(CertificateError) -> Certificate {
        let certificate = try base(key: key, days: days)
        try setName(X509_get_subject_name(certificate.pointer), commonName: commonName)
        X509_set_issuer_name(certificate.pointer, X509_get_subject_name(authority.certificate.pointer))
        // Python 3.13's strict verification wants the key identifiers and key usage as well as the SANs.
        try addExtensions(certificate, issuer: authority.certificate, [
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, "critical,digitalSignature,keyEncipherment"),
            (NID_ext_key_usage, "serverAuth"),
            (NID_subject_alt_name, subjectAlternativeNames),
            (NID_subject_key_identifier, "hash"),
            (NID_authority_key_identifier, "keyid:always"),
        ])
        try sign(certificate, with: authority.key)
        return certificate
    }

    private static func base(key: KeyPair, days: Int) throws(CertificateError) -> Certificate {
        guard let pointer = X509_new() else { throw .openSSL("cannot make a certificate") }
        let certificate = Certificate(taking: pointer)
        X509_set_version(pointer, 2)   // X.509 v3
        // A random positive 63-bit serial: unique enough that a client never sees two leaves with one serial.
        var serial: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &serial) { RAND_bytes($0.baseAddress!.assumingMemoryBound(to: UInt8.self), 8) }
        ASN1_INTEGER_set_uint64(X509_get_serialNumber(pointer), (serial & 0x7FFF_FFFF_FFFF_FFFF) | 1)
        // An hour back: a client whose clock runs a little behind still accepts a fresh leaf.
        X509_gmtime_adj(X509_getm_notBefore(pointer), -3600)
        X509_gmtime_adj(X509_getm_notAfter(pointer), days * 86_400)
        guard X509_set_pubkey(pointer, key.pointer) == 1 else { throw .openSSL("cannot put the key in a certificate") }
        return certificate
    }

    private static func setName(_ name: OpaquePointer?, commonName: String) throws(CertificateError) {
        let entries = [("O", "Shade"), ("CN", commonName)]
        for (field, value) in entries {
            let added = Array(value.utf8).withUnsafeBufferPointer {
                X509_NAME_add_entry_by_txt(name, field, MBSTRING_ASC, $0.baseAddress, Int32($0.count), -1, 0)
            }
            guard added == 1 else { throw .openSSL("cannot name a certificate \(commonName)") }
        }
    }

    private static func addExtensions(_ certificate: Certificate, issuer: Certificate,
                                      _ extensions: [(Int32, String)]) throws(CertificateError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer.pointer, certificate.pointer, nil, nil, 0)
        for (nid, value) in extensions {
            guard let made = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw .openSSL("cannot add the certificate extension \(value)")
            }
            defer { X509_EXTENSION_free(made) }
            guard X509_add_ext(certificate.pointer, made, -1) == 1 else { throw .openSSL("cannot add \(value)") }
        }
    }

    private static func sign(_ certificate: Certificate, with key: KeyPair) throws(CertificateError) {
        guard X509_sign(certificate.pointer, key.pointer, EVP_sha256()) > 0 else { throw .openSSL("cannot sign a certificate") }
    }
}
