// seeds: ndjson
// NDJSON framing on any bytes: the incremental framer, fed in pieces of a size the first byte picks,
// frames exactly the lines the whole-input framer does (under a small line limit, both policies for a
// last line without a newline), and every line is answered by a fresh live session with one reply line that
// holds no raw control byte.
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
nonisolated let connection = ConnectionInfo(id: 1, transport: .unix)

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzLineFramer(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, count)
    guard let first = bytes.first else { return 0 }
    let input = Array(bytes.dropFirst())
    let piece = Int(first % 13) + 1
    let limit = 64 + Int(first >> 4) * 16
    for policy in [UnterminatedLastLine.accepted, .truncated] {
        let whole = LineFramer.lines(of: input, maxLineBytes: limit, unterminatedLastLine: policy)
        var framer = LineFramer(maxLineBytes: limit, unterminatedLastLine: policy)
        var lines: [FramedLine] = []
        var offset = 0
        while offset < input.count {
            framer.append(input[offset..<min(input.count, offset + piece)])
            offset += piece
            while let line = framer.next() { lines.append(line) }
        }
        framer.finish()
        while let line = framer.next() { lines.append(line) }
        Fuzz.require(lines == whole, "pieces of \(piece) bytes framed \(lines.count) lines, the whole input \(whole.count)")
    }
    let session = freshSession()
    for line in LineFramer.lines(of: input, maxLineBytes: limit, unterminatedLastLine: .accepted) {
        let reply: [UInt8]
        switch line {
        case .line(let bytes, let number): reply = session.respond(toLine: bytes, lineNumber: number, from: connection)
        default: reply = session.respond(toRefusedLine: line, from: connection)
        }
        Fuzz.require(!reply.contains(0x0A), "a reply of more than one line")
        Fuzz.expectNoControlBytes(reply, "the reply to line \(line.number)")
    }
    return 0
}

Fuzz.main(fuzzLineFramer)
