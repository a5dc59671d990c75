import Testing
import ShadeIO


private func frame(_ chunks: [ArraySlice<UInt8>], limit: Int = 1 << 20, last: UnterminatedLastLine) -> [FramedLine] {
    var framer = LineFramer(maxLineBytes: limit, unterminatedLastLine: last)
    var lines: [FramedLine] = []
    for chunk in chunks {
        framer.append(chunk)
        while let line = framer.next() { lines.append(line) }
    }
    framer.finish()
    while let line = framer.next() { lines.append(line) }
    return lines
}

private let sample = bytes("{\"a\":1}\r\n\n{\"b\":2}\n  \t\r\n{\"c\":3}")

@Test func linesAreNumberedFromOneCountingBlankLines() {
    #expect(frame([sample[...]], last: .truncated) == [
        .line(bytes: bytes("{\"a\":1}"), number: 1),
        .line(bytes: bytes("{\"b\":2}"), number: 3),
        .truncated(bytes: bytes("{\"c\":3}"), number: 5),
    ])
}

@Test func unterminatedLastLineIsTakenWhenConfiguredForSockets() {
    #expect(frame([sample[...]], last: .accepted).last == .line(bytes: bytes("{\"c\":3}"), number: 5))
}

@Test func everySplitPointGivesTheSameLines() {
    let whole = frame([sample[...]], last: .truncated)
    for split in 0...sample.count {
        #expect(frame([sample[..<split], sample[split...]], last: .truncated) == whole, "split at \(split)")
    }
    #expect(frame(sample.map { [$0][...] }, last: .truncated) == whole)
}

@Test func overLongLineIsAnErrorAndTheStreamResynchronises() {
    let stream = bytes("12345\n1234567890123\nabc\n")
    let expected: [FramedLine] = [
        .line(bytes: bytes("12345"), number: 1),
        .tooLong(number: 2, byteCount: 13, limit: 8),
        .line(bytes: bytes("abc"), number: 3),
    ]
    #expect(frame([stream[...]], limit: 8, last: .truncated) == expected)
    // Byte by byte, the long line is dropped as it comes and still reported once, whole.
    #expect(frame(stream.map { [$0][...] }, limit: 8, last: .truncated) == expected)
}

@Test func overLongLineAtTheEndOfTheStream() {
    #expect(frame([bytes("ok\n0123456789abcdef")[...]], limit: 8, last: .accepted) == [
        .line(bytes: bytes("ok"), number: 1),
        .tooLong(number: 2, byteCount: 16, limit: 8),
    ])
}

@Test func lineExactlyAtTheLimitIsTaken() {
    #expect(frame([bytes("12345678\r\n")[...]], limit: 8, last: .truncated) == [.line(bytes: bytes("12345678"), number: 1)])
}

@Test func problemsSayWhatWasWrongAndTheLimit() {
    #expect(FramedLine.tooLong(number: 4, byteCount: 2_000_000, limit: 1 << 20).problem
        == "line is 2000000 bytes; the limit is 1048576 bytes (1 MiB)")
    #expect(FramedLine.truncated(bytes: bytes("{\"a\""), number: 9).problem
        == "line is cut off: the input ended after 4 bytes without a newline")
    #expect(FramedLine.line(bytes: [], number: 1).problem == nil)
}

@Test(arguments: [
    ("{\"a\":1}\r\n\n{\"b\":2}\n  \t\r\n{\"c\":3}", 1 << 20),
    ("12345\n1234567890123\nabc\n", 8),
    ("ok\n0123456789abcdef", 8),
    ("ok\nabc\r", 8),
    ("\n\n", 8),
    ("12345678\r\n", 8),
])
func wholeInputGivesTheSameLinesAsTheIncrementalFramer(text: String, limit: Int) {
    for last in [UnterminatedLastLine.truncated, .accepted] {
        #expect(LineFramer.lines(of: bytes(text), maxLineBytes: limit, unterminatedLastLine: last)
            == frame([bytes(text)[...]], limit: limit, last: last))
    }
}

@Test func wholeInputHelper() {
    #expect(LineFramer.lines(of: bytes("a\nb\n"), unterminatedLastLine: .truncated) == [
        .line(bytes: bytes("a"), number: 1), .line(bytes: bytes("b"), number: 2),
    ])
    #expect(LineFramer.lines(of: [], unterminatedLastLine: .truncated) == [])
}
