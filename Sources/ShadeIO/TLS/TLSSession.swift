// TLS as a layer of bytes: ciphertext in from the socket, plaintext out to the framing, and back.
// OpenSSL works on memory BIOs, never on the socket, so a handshake never blocks the poll loop and
// the layer is tested without one.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import COpenSSL

/// The server side of Shade's TLS: one `SSL_CTX` with ALPN (`h2`, then `http/1.1`) and a leaf
/// certificate chosen per SNI name while the handshake runs.
public final class TLSServerContext {
    let context: OpaquePointer
    let leaves: LeafCertificates
    public var authority: CertificateAuthority { leaves.authority }

    public init(authority: CertificateAuthority) throws(CertificateError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw .openSSL("cannot start TLS") }
        self.context = context
        leaves = try LeafCertificates(authority: authority)
        // HTTP/2 requires TLS 1.2 or later (RFC 9113 §9.2); nothing older is worth offering.
        shade_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        // Buffers of idle connections go back to the allocator: hundreds of quiet clients cost little.
        shade_SSL_CTX_set_mode(context, Int(SSL_MODE_RELEASE_BUFFERS))
        SSL_CTX_set_alpn_select_cb(context, { _, out, outLength, offered, offeredLength, _ in
            TLSServerContext.selectProtocol(out, outLength, offered, offeredLength)
        }, nil)
        SSL_CTX_set_cert_cb(context, { ssl, argument in
            guard let ssl, let argument else { return 0 }
            let server = Unmanaged<TLSServerContext>.fromOpaque(argument).takeUnretainedValue()
            return server.chooseCertificate(ssl) ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { SSL_CTX_free(context) }

    /// The ALPN protocols Shade speaks, best first.
    static let protocols = ["h2", "http/1.1"]

    /// Picks `h2`, else `http/1.1`, from the client's list; a client that offers neither gets no ALPN
    /// answer (and is then told apart by what it sends).
    private static func selectProtocol(_ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ outLength: UnsafeMutablePointer<UInt8>?,
                                       _ offered: UnsafePointer<UInt8>?, _ offeredLength: UInt32) -> Int32 {
        guard let out, let outLength, let offered else { return SSL_TLSEXT_ERR_NOACK }
        let list = UnsafeBufferPointer(start: offered, count: Int(offeredLength))
        for wanted in protocols {
            let name = Array(wanted.utf8)
            var index = 0
            while index < list.count {
                let length = Int(list[index])
                let start = index + 1
                guard start + length <= list.count else { break }
                if length == name.count && list[start..<(start + length)].elementsEqual(name) {
                    out.pointee = offered + start
                    outLength.pointee = UInt8(length)
                    return SSL_TLSEXT_ERR_OK
                }
                index = start + length
            }
        }
        return SSL_TLSEXT_ERR_NOACK
    }

    /// Called by OpenSSL once the ClientHello is read: the leaf for its SNI name. Without a name the
    /// certificate already set on the connection stays (the CONNECT host, or localhost).
    private func chooseCertificate(_ ssl: OpaquePointer) -> Bool {
        guard let raw = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) else { return true }
        let name = String(cString: raw).lowercased()
        guard HostName.isAcceptable(name), let certificate = try? leaves.certificate(for: name) else { return true }
        return SSL_use_certificate(ssl, certificate.pointer) == 1
    }

    /// A server session for one connection; `defaultName` is the certificate a client that sends no SNI
    /// gets (the CONNECT host in a tunnel; nil: localhost and 127.0.0.1).
    func session(defaultName: String?) throws(CertificateError) -> TLSSession {
        let certificate = try leaves.certificate(for: defaultName)
        return try TLSSession(context: self, certificate: certificate)
    }
}

/// One TLS connection over memory BIOs. Feed it the socket's bytes, take its plaintext; give it
/// plaintext, take the ciphertext to send.
final class TLSSession {
    enum Progress: Equatable {
        /// The handshake needs more bytes from the client.
        case inProgress
        case established
        /// The handshake failed; `reason` says why (an alert may be waiting in the output).
        case failed(String)
    }

    enum ReadEnd: Equatable {
        /// Everything there was is read; more may come.
        case wouldBlock
        /// The client sent close_notify.
        case closed
        case failed(String)
    }

    private let ssl: OpaquePointer
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer
    private(set) var isEstablished = false

    fileprivate init(context: TLSServerContext, certificate: Certificate) throws(CertificateError) {
        guard let ssl = SSL_new(context.context) else { throw .openSSL("cannot start a TLS session") }
        self.ssl = ssl
        incoming = BIO_new(BIO_s_mem())
        outgoing = BIO_new(BIO_s_mem())
        // An empty incoming BIO means "wait for more", not end of file.
        BIO_ctrl(incoming, BIO_C_SET_BUF_MEM_EOF_RETURN, -1, nil)
        BIO_ctrl(outgoing, BIO_C_SET_BUF_MEM_EOF_RETURN, -1, nil)
        SSL_set_bio(ssl, incoming, outgoing)   // the SSL owns both BIOs from here
        SSL_set_accept_state(ssl)
        SSL_use_certificate(ssl, certificate.pointer)
        SSL_use_PrivateKey(ssl, context.leaves.key.pointer)
    }

    deinit { SSL_free(ssl) }

    /// Ciphertext from the client.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        BIO_write(incoming, base, Int32(clamping: bytes.count))
    }

    func feed(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Runs the handshake as far as the bytes fed allow.
    func handshake() -> Progress {
        if isEstablished { return .established }
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            isEstablished = true
            return .established
        }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return .inProgress
        default:
            let reason = OpenSSLErrors.drain()
            return .failed(reason.isEmpty ? "the client broke off the handshake" : String(reason.dropFirst(2)))
        }
    }

    /// Appends the plaintext available now to `plaintext`.
    func read(into plaintext: inout [UInt8]) -> ReadEnd {
        let room = 16 << 10
        while true {
            // Decrypted straight into the caller's buffer: no chunk to copy from.
            let start = plaintext.count
            plaintext += repeatElement(0, count: room)
            let count = plaintext.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress! + start, Int32(room)) }
            plaintext.removeLast(room - max(0, Int(count)))
            if count > 0 { continue }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return .wouldBlock
            case SSL_ERROR_ZERO_RETURN: return .closed
            default:
                let reason = OpenSSLErrors.drain()
                return .failed(reason.isEmpty ? "TLS read failed" : String(reason.dropFirst(2)))
            }
        }
    }

    /// Encrypts `plaintext` (the memory BIO takes it all).
    func write(_ plaintext: UnsafeRawBufferPointer) {
        guard let base = plaintext.baseAddress, !plaintext.isEmpty else { return }
        var offset = 0
        while offset < plaintext.count {
            let written = SSL_write(ssl, base + offset, Int32(clamping: plaintext.count - offset))
            guard written > 0 else { _ = OpenSSLErrors.drain(); return }
            offset += Int(written)
        }
    }

    /// Sends close_notify (the output then holds it).
    func close() {
        if isEstablished { SSL_shutdown(ssl) }
        _ = OpenSSLErrors.drain()
    }

    /// Ciphertext waiting to go to the client, appended to `output`.
    func takeCiphertext(into output: inout [UInt8]) {
        let pending = Int(BIO_ctrl_pending(outgoing))
        guard pending > 0 else { return }
        let start = output.count
        output += repeatElement(0, count: pending)
        let read = output.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress! + start, Int32(pending)) }
        output.removeLast(pending - max(0, Int(read)))
    }

    var hasCiphertext: Bool { BIO_ctrl_pending(outgoing) > 0 }

    /// The protocol ALPN chose (`h2`, `http/1.1`), nil when the client offered none Shade speaks.
    var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The SNI name the client sent, lower-cased.
    var serverName: String? {
        SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0).lowercased() }
    }

    var version: String { String(cString: SSL_get_version(ssl)) }
}
