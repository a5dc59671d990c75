import Foundation
import Testing
import ShadeCore
import ShadeIO

/// Lines as `LineChunks` hands them out, read through a pipe.
private func chunkedLines(_ text: String, chunkSize: Int, prefixBytes: Int = 0) -> [String] {
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    let bytes = Array(text.utf8)
    let prefix = Array(bytes.prefix(prefixBytes))
    let rest = Array(bytes.dropFirst(prefixBytes))
    // Small inputs: the pipe buffer holds them, so write all and close before reading.
    rest.withUnsafeBytes { _ = write(fds[1], $0.baseAddress, $0.count) }
    close(fds[1])
    defer { close(fds[0]) }
    var lines: [String] = []
    let ok = LineChunks.forEach(fd: fds[0], after: prefix, chunkSize: chunkSize) { line, number, terminated in
        lines.append("\(number)\(terminated ? "" : "!") \(String(decoding: line, as: UTF8.self))")
    }
    #expect(ok)
    return lines
}

@Test(arguments: [1, 2, 3, 5, 7, 64, 1 << 18])
func chunkedLinesAreTheLinesWhateverTheChunkSize(chunkSize: Int) {
    let text = "{\"a\":1}\n\n  \r\n{\"b\":\"a longer line than the chunk\"}\r\nlast"
    #expect(chunkedLines(text, chunkSize: chunkSize) == [
        "1 {\"a\":1}", "2 ", "3   \r", "4 {\"b\":\"a longer line than the chunk\"}\r", "5! last",
    ])
    #expect(chunkedLines(text, chunkSize: chunkSize, prefixBytes: 11) == chunkedLines(text, chunkSize: chunkSize))
    #expect(chunkedLines("a\nb\n", chunkSize: chunkSize) == ["1 a", "2 b"])
    #expect(chunkedLines("", chunkSize: chunkSize) == [])
}

@Test func aLineLongerThanTheChunkGrowsTheBufferOnlyToThatLine() {
    let long = String(repeating: "x", count: 10_000)
    #expect(chunkedLines("s\n\(long)\nt", chunkSize: 16) == ["1 s", "2 \(long)", "3! t"])
}

/// The streamed sniff gives the whole-input answer, from any prefix on which it commits to one.
@Test(arguments: [
    "{\"a\":1}\n{\"b\":2}\n", "  [{\"a\":1}]\r\n{\"b\":\"}\\\"{\"}", "{\"a\":1}\n", "{\"a\":1}", "{\n  \"a\": 1\n}\n",
    "{\n  \"a\": 1\n}\n{\"b\": 2}\n", "{\"a\":1} {\"b\":2}", "[1, 2,]\n", "not json\n{}\n", "", "   \n\n  {\"a\":\"\\\"}\"}\n\n {}",
])
func sniffingAStreamAgreesWithSniffingTheWhole(text: String) {
    let bytes = Array(text.utf8)
    let answer = InputFiles.sniffKind(bytes)
    for count in 0...bytes.count {
        if let early = InputFiles.sniffKind(Array(bytes.prefix(count)), atEnd: false) {
            #expect(early == answer, "after \(count) bytes of \(text.debugDescription)")
        }
    }
    #expect(InputFiles.sniffKind(bytes, atEnd: true) == answer)
}

@Test func aRecordingFileIsStreamedLineByLineAndOneDocumentReadWhole() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("shade-stream-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    try Data("{\"a\":1}\n{\"b\":2}".utf8).write(to: root.appendingPathComponent("r.jsonl"))
    try Data("[{\"c\":3}]".utf8).write(to: root.appendingPathComponent("w.json"))
    let sources = try InputFiles.sources([root.path])
    #expect(sources.map(\.name) == [root.path + "/r.jsonl", root.path + "/w.json"])
    var seen: [String] = []
    for source in sources {
        try InputFiles.read(source, whole: { seen.append("whole " + String(decoding: $0, as: UTF8.self)) },
                            line: { line, number, terminated in
                                seen.append("line \(number) \(terminated) " + String(decoding: line, as: UTF8.self))
                            })
    }
    #expect(seen == ["line 1 true {\"a\":1}", "line 2 false {\"b\":2}", "whole [{\"c\":3}]"])
}

@Test func intakeLineByLineGivesWhatIntakeOfTheWholeGives() {
    let text = "{\"data\":{\"k\":\"v\"}}\r\n\n  \n[{\"data\":{}},\n{\"data\": {"
    var whole = Intake()
    let expected = whole.lines(Array(text.utf8), source: "s.jsonl")
    var streamed = Intake()
    var outcomes: [Intake.Outcome] = []
    // Split as bytes: "\r\n" is one Character, so a String split on "\n" would keep it whole.
    let lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
        let bytes = Array(line)
        bytes.withUnsafeBufferPointer { buffer in
            streamed.line(buffer, number: index + 1, terminated: index < lines.count - 1, source: "s.jsonl") { outcomes.append($0) }
        }
    }
    #expect(outcomes == expected)
    #expect(expected.count == 3)
}
