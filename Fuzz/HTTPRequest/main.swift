// seeds: http
// The HTTP/1.1 request parser on any bytes, fed in pieces of a size the first byte picks (as a socket
// delivers them), and every request it completes answered by the routes of a live session: no trap, the
// same requests whatever the pieces, and no response head or body holding a raw control byte.
import FuzzSupport
import ShadeCore
import ShadeIO

final class FixedClock: Clock {
    func nowMillis() -> Int64 { 1_796_033_700_120 }
}

/// A fresh session per input, as a fresh `listen` would be: a finding reproduces from its input alone.
func freshSession() -> LiveSession {
    LiveSession(options: ProfileOptions(), texts: TextResolver(), journal: nil, apiKey: nil, clock: FixedClock(), wallClock: FixedClock())
}
nonisolated let connection = ConnectionInfo(id: 1, transport: .tcp(peer: "127.0.0.1:1"))

/// Every event the parser gives for `bytes` fed `piece` bytes at a time, and the error that ended it.
func parse(_ bytes: ArraySlice<UInt8>, piece: Int) -> (events: [HTTPParseEvent], error: HTTPRequestError?) {
    var parser = HTTPRequestParser(limits: HTTPLimits(maxBodyBytes: 4096, maxHeaderBytes: 2048))
    var events: [HTTPParseEvent] = []
    var offset = bytes.startIndex
    while offset < bytes.endIndex {
        let end = min(bytes.endIndex, offset + piece)
        parser.append(bytes[offset..<end])
        offset = end
        do {
            while let event = try parser.next() { events.append(event) }
        } catch {
            return (events, error)
        }
    }
    return (events, nil)
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, count)
    guard let first = bytes.first else { return 0 }
    let input = bytes.dropFirst()
    let whole = parse(input, piece: max(1, input.count))
    let pieces = parse(input, piece: Int(first % 17) + 1)
    // `100 Continue` is asked for only while the body has not come yet: it depends on the pieces.
    let requests = { (events: [HTTPParseEvent]) in events.filter { $0 != .continueRequested } }
    Fuzz.require(requests(whole.events) == requests(pieces.events) && whole.error == pieces.error,
                 "pieces of \(Int(first % 17) + 1) bytes gave other requests than the whole input")
    let session = freshSession()
    for case .request(let request) in whole.events {
        let response = session.respond(to: request, from: connection)
        Fuzz.expectNoControlBytes(response.serialized(keepAlive: request.keepAlive), "the response to \(request.method)", allowingCRLF: true)
    }
    if let error = whole.error {
        let response = session.respond(toRefused: error, from: connection)
        Fuzz.expectNoControlBytes(response.serialized(keepAlive: false), "the refusal \(error)", allowingCRLF: true)
    }
    return 0
}

Fuzz.main(fuzzHTTPRequest)
