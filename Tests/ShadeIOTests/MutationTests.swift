import Testing
import ShadeCore
@testable import ShadeIO

// The HTTP/2 and TLS layers fed mangled bytes (a seeded generator, so a failure repeats): they answer,
// refuse or close, and never trap. Until the project's libFuzzer targets cover these layers, this is the
// floor: thousands of inputs per run, each a mutation of bytes a real client sent.

/// SplitMix64: small, fast, and the same sequence on every machine.
struct SeededBytes {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

    /// Flips, replaces, inserts, deletes or truncates a few bytes.
    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...below(4) {
            guard !bytes.isEmpty else { break }
            let at = below(bytes.count)
            switch below(5) {
            case 0: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << below(8))
            case 1: bytes[at] = UInt8(truncatingIfNeeded: next())
            case 2: bytes.insert(UInt8(truncatingIfNeeded: next()), at: at)
            case 3: bytes.remove(at: at)
            default: bytes.removeLast(bytes.count - at)
            }
        }
        return bytes
    }
}

func hexBytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        bytes.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

/// What Python's h2 library sends for one APNs POST: the preface, SETTINGS, WINDOW_UPDATE, HEADERS, DATA.
let h2Request = hexBytes("505249202a20485454502f322e300d0a0d0a534d0d0a0d0a00002a04000000000000010000100000020000000100040000ffff00050000400000080000000000030000006400060001000000002a01040000000183448d6196242f7310ac0c71c6424927864186a0e41d139d09408a1d75216aed44eb27d565841d05b13f0000160001000000017b22617073223a7b22616c657274223a226869227d7d")

/// The ClientHello Python's ssl module sends for api.push.apple.com with ALPN h2 and http/1.1.
let clientHello = hexBytes("1603010200010001fc03035fe2be5bd91f3fc432a32213e34d82dc56eb4decb8f04262b1b8acd6cc2a36a32003ca57bcb289f6b8ff782e5b468e1b5fa076adcbefa111ff991c8cd20e12806a0024130213031301c02cc030c02bc02fcca9cca8c024c028c023c027009f009e006b006700ff0100018f0000001700150000126170692e707573682e6170706c652e636f6d000b000403000102000a00160014001d0017001e0019001801000101010201030104002300000010000e000c02683208687474702f312e310016000000170000000d002a0028040305030603080708080809080a080b080408050806040105010601030303010302040205020602002b00050403040303002d00020101003300260024001d0020ee79bceddd2637fbad12dd6aaa432bdfc41f5eea11bb00cbd883d8ac71bdfc3d001500c9000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000")

/// Feeds `bytes` in chunks the generator picks and answers after each, as the loop does.
func feed(_ framing: HTTP2Framing, _ bytes: [UInt8], _ random: inout SeededBytes) -> [UInt8] {
    var output: [UInt8] = []
    var offset = 0
    while offset < bytes.count {
        let count = 1 + random.below(64)
        framing.receive(bytes[offset..<min(bytes.count, offset + count)])
        offset += count
        if framing.answer(into: &output, limit: 1 << 20) == .close { break }
    }
    return output
}

@Test func http2FramingTakesTheRequestAsItCameInAnyChunking() {
    var random = SeededBytes(state: 1)
    for _ in 0..<50 {
        var requests: [HTTPRequest] = []
        let framing = HTTP2Framing(limits: HTTPLimits()) { requests.append($0); return HTTPResponse(status: 200) }
        _ = feed(framing, h2Request, &random)
        #expect(requests == [HTTPRequest(method: "POST", target: "/3/device/aabbccdd", version: .http2,
                                         headers: ["apns-push-type": "alert", "host": "localhost"],
                                         body: Array(#"{"aps":{"alert":"hi"}}"#.utf8))])
    }
}

@Test func http2FramingSurvivesTenThousandMangledConnections() {
    var random = SeededBytes(state: 2)
    var answered = 0
    for _ in 0..<10_000 {
        let framing = HTTP2Framing(limits: HTTPLimits(maxBodyBytes: 4096, maxHeaderBytes: 1024)) { _ in
            answered += 1
            return .json("{\"ok\": true}")
        }
        let output = feed(framing, random.mutate(h2Request), &random)
        var goAway: [UInt8] = []
        framing.goAway(into: &goAway)
        #expect(output.count < 1 << 16)
    }
    #expect(answered > 500)   // enough mutations still carry a request to reach the routes, not only the preface check
}

@Test func tlsHandshakesSurviveMangledClientHellos() throws {
    let context = try TLSServerContext(authority: try CertificateAuthority.loadOrCreate(directory: temporaryFile("ca")))
    var random = SeededBytes(state: 3)
    var failed = 0
    for _ in 0..<2_000 {
        let session = try context.session(defaultName: nil)
        let hello = random.mutate(clientHello)
        var offset = 0
        var progress = TLSSession.Progress.inProgress
        while offset < hello.count && progress == .inProgress {
            let count = 1 + random.below(200)
            session.feed(hello[offset..<min(hello.count, offset + count)])
            offset += count
            progress = session.handshake()
        }
        var output: [UInt8] = []
        session.takeCiphertext(into: &output)
        if case .failed = progress { failed += 1 }
    }
    #expect(failed > 0)   // mangled hellos are refused, not crashed on
}

@Test func anUnmangledClientHelloGetsTheServerHelloAndTheAppleLeaf() throws {
    let context = try TLSServerContext(authority: try CertificateAuthority.loadOrCreate(directory: temporaryFile("ca")))
    let session = try context.session(defaultName: nil)
    session.feed(clientHello[...])
    #expect(session.handshake() == .inProgress)   // waiting for the client's Finished
    var output: [UInt8] = []
    session.takeCiphertext(into: &output)
    #expect(output.first == 0x16)   // a handshake record: ServerHello
    #expect(session.serverName == "api.push.apple.com")
    #expect(session.negotiatedProtocol == "h2")
}
