import Foundation
import Testing
import ShadeCore

// Issue 10, deliver 5: every output path, fed the same hostile strings (as payload text and as
// operator input: file names, options, header values), writes no raw control character: no byte
// below 0x20 but a newline, no DEL, no C1 (UTF-8 C2 80–C2 9F). The finding: raw ESC/BEL in usage
// errors, in the --strings parse error and in send's "not sent" line; raw DEL and C1 in the state JSON,
// HTTP error bodies and the echoed apns-id header.

/// The hostile strings: escape sequences (CSI, OSC ended by BEL), BEL, DEL, C1 CSI, a lone CR, NUL.
let hostileStrings = ["\u{1B}[31mred\u{1B}[0m", "\u{1B}]0;owned\u{07}", "bell\u{07}", "del\u{7F}", "csi\u{9B}2J", "cr\rover", "nul\u{0}x"]

/// What a file name or a command-line word can hold (no NUL, no slash).
let hostileNames = hostileStrings.filter { !$0.contains("\u{0}") }

/// The raw control bytes in `bytes`, as `0xNN` (newlines allowed; HTTP heads may end lines in CR LF).
func rawControls(_ bytes: [UInt8], allowingCRLF: Bool = false) -> [String] {
    var found: [String] = []
    for (i, b) in bytes.enumerated() {
        if b == 0x0A { continue }
        if allowingCRLF && b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { continue }
        if b < 0x20 || b == 0x7F { found.append("0x" + String(b, radix: 16)) }
        if b == 0xC2 && i + 1 < bytes.count && (0x80...0x9F).contains(bytes[i + 1]) { found.append("U+00" + String(bytes[i + 1], radix: 16)) }
    }
    return found
}

func rawControls(_ text: String) -> [String] { rawControls(Array(text.utf8)) }

/// A JSON string literal of `text` (escapes only, as a sender's library writes it).
func jsonLiteral(_ text: String) -> String { JSONWriter.compact(.string(text)) }

/// A directory of files named with each hostile string, holding `contents(name)`.
func hostileFiles(suffix: String, _ contents: (String) -> String) throws -> [String] {
    let directory = ServerBuild.temporary("hostile")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return try hostileNames.map { name in
        let path = directory + "/" + name + suffix
        try contents(name).write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }
}

@Test(arguments: hostileNames)
func deliver5_usageErrorsEchoOptionsAndCommandsAsSymbols(hostile: String) throws {
    for arguments in [["state", "--" + hostile], [hostile], ["state", "--platform", hostile, "x.json"],
                      ["state", "/nonexistent/" + hostile + ".json"], ["listen", "--port", hostile]] {
        let result = try runShadeCommand(arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(!result.stderr.isEmpty)
        #expect(rawControls(result.stderr) == [], "\(arguments): \(result.stderr)")
    }
}

@Test func deliver5_theStringsParseErrorNamesFileAndKeyAsSymbols() throws {
    let tables = try hostileFiles(suffix: ".json") { name in "{\n  \"k\(name)\": 1\n}" }
        + hostileFiles(suffix: ".strings") { name in "\"k\(name)\" = \"v\"" }
        + hostileFiles(suffix: ".xml") { name in "<resources><string name=\"\(name)\">" }
    for table in tables {
        let result = try runShadeCommand(["state", Build.sample("seed000-send-to-user.json"), "--strings", table])
        #expect(result.status == 2, "\(table)")
        #expect(result.stderr.hasPrefix("shade: --strings "))
        #expect(rawControls(result.stderr) == [], "\(result.stderr)")
    }
}

@Test func deliver5_sendsNotSentLineAndItsConnectErrorShowSymbols() throws {
    let files = try hostileFiles(suffix: ".json") { name in "{\"aps\": \(jsonLiteral(name))" }   // invalid: unclosed
    for (file, name) in zip(files, hostileNames) {
        let result = try runShadeCommand(["send", "--socket", "/tmp/shade-none-" + name + ".sock", file])
        #expect(result.stdout.contains(": not sent: invalid JSON (V8)"), "\(result.stdout)")
        #expect(rawControls(result.stdout) == [], "\(result.stdout)")
        #expect(!result.stderr.isEmpty)
        #expect(rawControls(result.stderr) == [], "\(result.stderr)")
    }
}

/// One push holding every hostile string in its title, body, keys and data.
func hostilePushes() -> [String] {
    hostileStrings.map { text in
        let t = jsonLiteral(text)
        return #"{"userId":"u","title":\#(t),"body":\#(t),"data":{"conversationId":\#(t),"senderName":\#(t),\#(t):\#(t)}}"#
    } + hostileStrings.map { text in
        #"{"aps":{"alert":{"title":\#(jsonLiteral(text)),"loc-key":\#(jsonLiteral(text))},\#(jsonLiteral(text)):1}}"#
    } + hostileStrings.map { text in #"{\#(jsonLiteral(text)):1}"# }   // no known shape: its reason names the key
}

@Test func deliver5_stateLintAndSnapshotWriteNoControlCharacter() throws {
    let files = try hostileFiles(suffix: ".jsonl") { _ in hostilePushes().joined(separator: "\n") + "\n" }
    for file in files {
        for arguments in [["state", file, "--platform", "all"], ["lint", file], ["lint", file, "--format", "json"],
                          ["snapshot", file, "--platform", "all", "--size", "160x60"], ["replay", file, "--instant"]] {
            let result = try runShadeCommand(arguments)
            #expect(result.status < 3, "\(arguments)")
            #expect(!result.stdout.isEmpty, "\(arguments)")
            #expect(rawControls(result.stdout) == [], "\(arguments)")
            #expect(rawControls(result.stderr) == [], "\(arguments)")
        }
    }
}

@Test(.enabled(if: curlInstalled)) func deliver5_aLiveListenWritesNoControlCharacterToLogsRepliesHeadersOrTheRecording() throws {
    let name = hostileNames[0]
    let record = ServerBuild.temporary("rec" + name + ".jsonl")
    let (shade, port) = try startListening(["--record", record], socket: ServerBuild.temporary(name + ".sock"))
    defer { _ = shade.stop(signal: SIGKILL) }
    let base = "http://127.0.0.1:\(port)"
    var outputs: [String: [UInt8]] = [:]
    for (i, push) in hostilePushes().enumerated() {
        let body = try runProgram("/usr/bin/curl", ["-s", "--max-time", "5", "\(base)/push", "--data-binary", push]).stdout
        outputs["/push \(i)"] = Array(body.utf8)
        let apns = try runProgram("/usr/bin/curl", ["-s", "-i", "--max-time", "5", "\(base)/3/device/zz", "--data-binary", push]).stdout
        outputs["/3/device \(i)"] = Array(apns.utf8)
    }
    // Header values pass as obs-text (C1 in UTF-8) or a tab; APNs echoes apns-id.
    for value in ["a\u{9B}2Jb", "tab\there", "nel\u{85}x"] {
        let head = try runProgram("/usr/bin/curl", ["-s", "-i", "--max-time", "5", "-H", "apns-id: \(value)",
                                                    "\(base)/3/device/\(String(repeating: "ab", count: 32))", "-d", #"{"aps":{"alert":"x"}}"#])
        #expect(head.stdout.contains("apns-id: "), "\(head.stdout)")
        outputs["apns-id \(value)"] = Array(head.stdout.utf8)
        let refused = try runProgram("/usr/bin/curl", ["-s", "-i", "--max-time", "5", "-H", "apns-id: \(value)", "\(base)/3/device/zz", "-d", "{"])
        outputs["apns-id refused \(value)"] = Array(refused.stdout.utf8)
    }
    let unknown = try runProgram("/usr/bin/curl", ["-s", "--max-time", "5", "\(base)/\u{9B}x\u{85}"])
    outputs["404"] = Array(unknown.stdout.utf8)
    let ndjson = try runShadeCommand(["send", "--port", port] + (try hostileFiles(suffix: ".json") { _ in hostilePushes()[0] }))
    outputs["send --port"] = Array(ndjson.stdout.utf8)
    outputs["state"] = Array(try curlText(["\(base)/state?platform=all"]).utf8)

    #expect(shade.stop() == 0)
    outputs["log"] = Array(shade.stdout.text.utf8)
    outputs["stderr"] = Array(shade.stderr.text.utf8)
    outputs["recording"] = Array(try Data(contentsOf: URL(fileURLWithPath: record)))
    #expect(shade.stdout.text.contains("refused (not recorded)"))
    #expect(outputs["recording"]?.isEmpty == false)
    for (path, bytes) in outputs.sorted(by: { $0.key < $1.key }) {
        #expect(rawControls(bytes, allowingCRLF: true) == [], "\(path): \(String(decoding: bytes, as: UTF8.self))")
    }
}
