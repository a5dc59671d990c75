import Foundation
import Testing
import ShadeIO

private func makeDirectory(_ files: [String: String]) throws -> String {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("shade-inputs-\(UUID().uuidString)")
    for (name, text) in files {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    return root.path
}

private func document(_ name: String, _ kind: InputDocument.Kind, _ text: String) -> InputDocument {
    InputDocument(name: name, kind: kind, bytes: Array(text.utf8))
}

@Test func directoryGivesItsPayloadFilesInNameOrder() throws {
    let root = try makeDirectory([
        "b.json": "{\"b\":1}", "a.jsonl": "{\"a\":1}\n", "C.apns": "{\"aps\":{}}", "d.NDJSON": "{}\n",
        ".hidden.json": "{}", "sub/inner.json": "{}", "notes.txt": "hi",
    ])
    #expect(try InputFiles.expand([root]) == [
        document(root + "/C.apns", .whole, "{\"aps\":{}}"),
        document(root + "/a.jsonl", .lines, "{\"a\":1}\n"),
        document(root + "/b.json", .whole, "{\"b\":1}"),
        document(root + "/d.NDJSON", .lines, "{}\n"),
    ])
    // Named explicitly, any file is read.
    #expect(try InputFiles.expand([root + "/notes.txt"]) == [document(root + "/notes.txt", .whole, "hi")])
    #expect(try InputFiles.expand([root + "/"]).first?.name == root + "/C.apns")
}

@Test func filesAndStandardInputInArgumentOrder() throws {
    let root = try makeDirectory(["one.ndjson": "{}\n{}\n", "two.apns": "{\"aps\":{}}"])
    let documents = try InputFiles.expand([root + "/two.apns", "-", root + "/one.ndjson"]) { Array("{\"x\":1}".utf8) }
    #expect(documents == [
        document(root + "/two.apns", .whole, "{\"aps\":{}}"),
        document("-", .whole, "{\"x\":1}"),
        document(root + "/one.ndjson", .lines, "{}\n{}\n"),
    ])
}

@Test func missingFileIsAnErrorNamingThePath() throws {
    let root = try makeDirectory(["a.json": "{}"])
    #expect(throws: InputError(path: root + "/missing.json", reason: "no such file or directory", fix: "check the path (a directory reads its payload files, - reads standard input)")) {
        try InputFiles.expand([root + "/a.json", root + "/missing.json"])
    }
    #expect(InputError(path: "x.json", reason: "no such file or directory").description
        == "cannot read x.json: no such file or directory")
    // DESIGN: a usage error names the problem and the fix.
    #expect(InputError(path: "x.json", reason: "no such file or directory", fix: "check the path").usageMessage
        == "x.json: no such file or directory — check the path")
}

@Test(arguments: [
    ("{\"a\":1}\n{\"b\":2}\n", InputDocument.Kind.lines),
    ("  [{\"a\":1}]\r\n{\"b\":\"}\\\"{\"}", .lines),
    ("{\"a\":1}\n", .whole),
    ("{\"a\":1}", .whole),
    ("{\n  \"a\": 1\n}\n", .whole),
    ("{\n  \"a\": 1\n}\n{\"b\": 2}\n", .whole),
    ("{\"a\":1} {\"b\":2}", .whole),
    ("[1, 2,]\n", .whole),
    ("not json\n{}\n", .whole),
    ("", .whole),
])
func standardInputIsLinesWhenTheFirstValueEndsOnItsLineAndMoreFollows(text: String, kind: InputDocument.Kind) {
    #expect(InputFiles.sniffKind(Array(text.utf8)) == kind)
}

@Test(arguments: [
    ("push.json", InputDocument.Kind.whole), ("a/b.apns", .whole), ("rec.jsonl", .lines), ("rec.ndjson", .lines),
    ("dir.v2/file", .whole), (".jsonl", .whole), ("x.JSONL", .lines),
])
func kindByExtension(path: String, kind: InputDocument.Kind) {
    #expect(InputFiles.kind(ofPath: path) == kind)
}
