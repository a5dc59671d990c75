import Foundation
import Testing
import ShadeCore
@testable import ShadeIO

// Inputs the fuzz targets (Fuzz/, scripts/fuzz.sh) found, kept in Tests/ShadeCoreTests/Fixtures/fuzz/TARGET
// (the fuzzer also starts from them), each with the bug it showed, now fixed.

/// A fuzz finding's exact bytes.
func fuzzFinding(_ target: String, _ name: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    return Array(try Data(contentsOf: root.appendingPathComponent("ShadeCoreTests/Fixtures/fuzz/\(target)/\(name)")))
}

/// Feeds `bytes` `piece` bytes at a time, as a socket delivers them.
private func frame(_ bytes: [UInt8], piece: Int, limit: Int, last: UnterminatedLastLine) -> [FramedLine] {
    var framer = LineFramer(maxLineBytes: limit, unterminatedLastLine: last)
    var lines: [FramedLine] = []
    var offset = 0
    while offset < bytes.count {
        framer.append(bytes[offset..<min(bytes.count, offset + piece)])
        offset += piece
        while let line = framer.next() { lines.append(line) }
    }
    framer.finish()
    while let line = framer.next() { lines.append(line) }
    return lines
}

/// FuzzLineFramer: an over-long line whose CR came in one piece and its newline in the next was counted
/// one byte longer than the whole-input framer counts it (437 against 438 bytes); a line of exactly
/// the limit with a CR at the end of a piece was called too long.
@Test func fuzzLineFramer_aCRBeforeAPieceBoundaryEndsTheLineAsInTheWholeInput() throws {
    let finding = try fuzzFinding("LineFramer", "crlf-at-the-limit")
    let input = Array(finding.dropFirst())   // the target's first byte picks pieces of 6 and a limit of 64
    for last in [UnterminatedLastLine.accepted, .truncated] {
        #expect(frame(input, piece: 6, limit: 64, last: last) == LineFramer.lines(of: input, maxLineBytes: 64, unterminatedLastLine: last))
    }
    #expect(frame(input, piece: 6, limit: 64, last: .accepted).first == .tooLong(number: 1, byteCount: 437, limit: 64))
}

@Test(arguments: [
    ("0123456789\r\nok\n", 4, 8),   // over the limit; the CR at the end of a piece
    ("01234567\r\nok\n", 3, 8),     // exactly the limit, then CR LF split over pieces
    ("01234567\r", 9, 8),           // exactly the limit, then a CR, then the end
    ("0123456789\r", 5, 8),
])
func fuzzLineFramer_everyPieceSizeFramesTheWholeInputsLines(text: String, piece: Int, limit: Int) {
    for size in 1...piece {
        for last in [UnterminatedLastLine.accepted, .truncated] {
            #expect(frame(bytes(text), piece: size, limit: limit, last: last)
                == LineFramer.lines(of: bytes(text), maxLineBytes: limit, unterminatedLastLine: last), "pieces of \(size)")
        }
    }
}

/// FuzzJSONParser: once I9's size counted DEL and C1 as the raw bytes a sender sends, the target still
/// compared it with Shade's own output, which escapes them (`\u007f`, `\u0085`). The finding is compact
/// JSON as a sender writes it, so its size is its own length; Shade's output is longer by the escapes.
@Test func fuzzJSONParser_theSizeOfASendersCompactJSONIsItsLengthWithDELAndC1Raw() throws {
    let finding = try fuzzFinding("JSONParser", "del-and-c1-wire-size.json")
    let value = try JSONParser.parse(finding)
    #expect(JSONWriter.compactSize(value) == finding.count)
    #expect(JSONWriter.compactBytes(value).count == finding.count + 5 + 4)
}
