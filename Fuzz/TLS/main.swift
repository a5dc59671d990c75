// seeds: tls
// The first bytes of a connection as the poll loop takes them: protocol detection, CONNECT and its
// authority, and Shade's TLS server session (OpenSSL on memory BIOs, ALPN, a leaf minted for the SNI name
// that passes HostName) on ClientHello-like bytes. The first byte picks the mode, the second the pieces
// the bytes come in (Pieces):
//   0  a TLS session with no default name (a direct connection) on the rest
//   1  a plain connection: the rest is detected, piece by piece, as PollLoop.deliver does; HTTP/1.1 goes
//      to the real framing and routes, a CONNECT to an intercepted host to TLS with the host's leaf
//   2  a TLS session inside a tunnel (the default leaf is api.push.apple.com's)
//   3  the rest is a CONNECT authority: parsed, refused or minted a leaf for
// No trap, leak or hang; detection the same whatever the pieces; every byte Shade writes back is TLS
// records or an HTTP/1.1 reply without a raw control byte; no refusal or handshake reason holds one.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import FuzzSupport
import ShadeCore
@testable import ShadeIO

final class FixedClock: Clock {
    func nowMillis() -> Int64 { 1_796_033_700_120 }
}

/// One CA for the whole run (making one writes files, removed when the run ends); every input gets a
/// fresh context and leaf cache.
nonisolated let caParent: String = {
    var template = Array("/tmp/shade-fuzz-tls-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { Fuzz.fail("cannot make a directory for the CA") }
    return String(cString: made)
}()
nonisolated(unsafe) let ca: CertificateAuthority = {
    do {
        let authority = try CertificateAuthority.loadOrCreate(directory: caParent + "/ca")
        atexit {
            for file in ["/ca/ca.pem", "/ca/ca-key.pem"] { unlink(caParent + file) }
            rmdir(caParent + "/ca")
            rmdir(caParent)
        }
        return authority
    } catch {
        Fuzz.fail("cannot make the CA: \(error)")
    }
}()
nonisolated let policy = ProxyPolicy()
nonisolated let limits = HTTPLimits(maxBodyBytes: 4096, maxHeaderBytes: 2048)

/// What Shade sends on a TLS connection: records of the four content types, no longer than a record may
/// be. Not their version: OpenSSL answers a ClientHello of version 0.0 with an alert in a 0.0 record.
func checkRecords(_ bytes: [UInt8]) {
    var offset = 0
    while offset + 5 <= bytes.count {
        let type = bytes[offset]
        let length = Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
        Fuzz.require((20...23).contains(type) && length <= 16_384 + 2048,
                     "TLS output: a record of type \(type), \(length) bytes at \(offset)")
        offset += 5 + length
    }
}

/// A TLS server session fed `bytes` in pieces, as PollLoop.receive feeds it: handshake, then plaintext.
func serveTLS(_ bytes: ArraySlice<UInt8>, cuts: UInt8, defaultName: String?) {
    let context: TLSServerContext
    let session: TLSSession
    do {
        context = try TLSServerContext(authority: ca)
        session = try context.session(defaultName: defaultName)
    } catch {
        Fuzz.fail("cannot start a TLS session for \(String(describing: defaultName)): \(error)")
    }
    var output: [UInt8] = []
    for piece in Pieces.slices(bytes, cutBy: cuts) {
        session.feed(piece)
        if !session.isEstablished {
            switch session.handshake() {
            case .inProgress:
                session.takeCiphertext(into: &output)
                continue
            case .failed(let reason):
                Fuzz.expectNoControlBytes(reason, "the handshake's failure reason")
                session.takeCiphertext(into: &output)
                checkRecords(output)
                return
            case .established:
                session.takeCiphertext(into: &output)
            }
        }
        var plaintext: [UInt8] = []
        let end = session.read(into: &plaintext)
        session.takeCiphertext(into: &output)
        if case .failed(let reason) = end { Fuzz.expectNoControlBytes(reason, "the TLS read's failure reason") }
        if end != .wouldBlock { break }
    }
    if let name = session.serverName, HostName.isAcceptable(name) {
        Fuzz.expectNoControlBytes(name, "the SNI name that passed HostName")
    }
    session.close()
    session.takeCiphertext(into: &output)
    checkRecords(output)
}

/// What Shade answers a CONNECT whose authority it cannot use (PollLoop.openTunnel's refusal).
func checkConnect(_ authority: String, buffered: [UInt8], cuts: UInt8) {
    guard let target = ConnectTarget(authority) else {
        Fuzz.expectNoControlBytes(ConnectTarget.refusal(of: authority).serialized(keepAlive: false),
                                  "the refusal of CONNECT \(authority.debugDescription)", allowingCRLF: true)
        return
    }
    Fuzz.require(HostName.isAcceptable(target.host) && target.port > 0, "CONNECT \(authority.debugDescription) gave \(target.description)")
    Fuzz.require(ConnectTarget(target.description) == target, "CONNECT \(target.description) does not parse back to itself")
    Fuzz.expectNoControlBytes(target.description, "the tunnel's description")
    // A leaf for whatever host passed: minted (or refused with a reason), never a trap.
    let leaves: LeafCertificates
    do {
        leaves = try LeafCertificates(authority: ca)
    } catch {
        Fuzz.fail("cannot make the leaves: \(error)")
    }
    do {
        _ = try leaves.certificate(for: target.host)
    } catch {
        Fuzz.expectNoControlBytes(error.message, "the reason no leaf is minted for \(target.host.debugDescription)")
    }
    if policy.intercepts(target.host) && !buffered.isEmpty {
        // Inside the tunnel the bytes are detected again (TLS allowed: the tunnel has none yet).
        if ProtocolDetector.detect(buffered[...], allowTLS: true) == .tls {
            serveTLS(buffered[...], cuts: cuts, defaultName: target.host)
        }
    }
}

/// A plain connection's first bytes: detected as PollLoop.deliver does, whatever the pieces.
func serveConnection(_ bytes: ArraySlice<UInt8>, cuts: UInt8) {
    var undecided: [UInt8] = []
    var detected: DetectedProtocol?
    var decidedAt = bytes.endIndex
    for piece in Pieces.slices(bytes, cutBy: cuts) {
        undecided += piece
        if let found = ProtocolDetector.detect(undecided[...], allowTLS: true) {
            detected = found
            decidedAt = piece.endIndex
            break
        }
        if undecided.count > ProtocolDetector.maxLeadingWhitespace { return }   // closed
    }
    guard let detected else { return }
    // Whatever the pieces, the answer is that of the bytes so far in one read.
    Fuzz.require(ProtocolDetector.detect(bytes[..<decidedAt], allowTLS: true) == detected,
                 "detection in pieces gave \(detected), in one read something else")
    let rest = bytes[bytes.startIndex...]
    switch detected {
    case .tls:
        serveTLS(rest, cuts: cuts, defaultName: nil)
    case .http1:
        let session = LiveSession(options: ProfileOptions(), texts: TextResolver(), journal: nil, apiKey: nil,
                                  clock: FixedClock(), wallClock: FixedClock())
        let info = ConnectionInfo(id: 1, transport: .tcp(peer: "127.0.0.1:1"), channel: Channel(framing: .http1))
        let framing = HTTP1Framing(limits: limits, handler: session, info: info)
        var output: [UInt8] = []
        framing.receive(rest)
        let state = framing.answer(into: &output, limit: 1 << 22)
        Fuzz.expectNoControlBytes(output, "the HTTP/1.1 replies", allowingCRLF: true)
        if case .connect(let authority, let buffered) = state {
            checkConnect(authority, buffered: buffered, cuts: cuts)
        }
    case .ndjson, .http2:
        break   // their own targets (LineFramer, HTTP2)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTLS(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, count)
    guard bytes.count >= 2 else { return 0 }
    let mode = bytes[0] & 3, cuts = bytes[1]
    let rest = bytes[2...]
    switch mode {
    case 0: serveTLS(rest, cuts: cuts, defaultName: nil)
    case 1: serveConnection(rest, cuts: cuts)
    case 2: serveTLS(rest, cuts: cuts, defaultName: "api.push.apple.com")
    default: checkConnect(String(decoding: rest, as: UTF8.self), buffered: [], cuts: cuts)
    }
    return 0
}

Fuzz.main(fuzzTLS)
