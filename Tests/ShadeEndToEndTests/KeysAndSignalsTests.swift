import Foundation
import Testing
import ShadeCore

// Issue 10, finding 7: SIGHUP killed a headless Shade without removing its socket or flushing its log;
// --api-key guarded one route, and was visible in `ps`.

@Test func finding7_sighupEndsAHeadlessShadeAsSigtermDoes() throws {
    let socket = ServerBuild.temporary("s.sock"), record = ServerBuild.temporary("rec.jsonl")
    let (shade, port) = try startListening(["--record", record], socket: socket)
    defer { _ = shade.stop(signal: SIGKILL) }
    #expect(try curlText(["http://127.0.0.1:\(port)/push", "-d", #"{"data":{"k":"v"}}"#]) == #"{"ok": true, "id": 1}"#)
    #expect(shade.stop(signal: SIGHUP) == 0)
    #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed")
    #expect(shade.stdout.text.contains("shade: stopped: 1 received, 1 accepted, 0 refused (1 recorded to \(record))"))
    #expect(try recordedLines(record).count == 1)
}

@Test(.enabled(if: curlInstalled)) func finding7_theKeyFromTheEnvironmentGuardsEveryRouteAndStaysOutOfPs() throws {
    let socket = ServerBuild.temporary("s.sock")
    let shade = try ShadeProcess(["listen", "--headless", "--port", "0", "--socket", socket, "--server-secret", "s3"],
                                 environment: ["SHADE_API_KEY": "env-key-42"])
    defer { _ = shade.stop(signal: SIGKILL) }
    let port = try #require(shade.waitForOutput(matching: #"http://127\.0\.0\.1:([0-9]+)"#))
    let base = "http://127.0.0.1:\(port)"
    let cmdline = try String(contentsOfFile: "/proc/\(shade.process.processIdentifier)/cmdline", encoding: .utf8)
    #expect(!cmdline.contains("env-key-42"))

    func status(_ arguments: [String]) throws -> String {
        try curlText(["-o", "/dev/null", "-w", "%{http_code}"] + arguments)
    }
    let push = #"{"userId":"u","title":"T","body":"B"}"#
    for path in ["/push", "/3/device/00ff", "/fcm/send", "/v1/projects/p/messages:send", "/--/api/v2/push/send", "/push/send-to-user"] {
        #expect(try status(["\(base)\(path)", "-d", push]) == "401", "\(path)")
    }
    #expect(try status(["\(base)/push", "-H", "x-api-key: env-key-42", "-d", push]) == "200")
    #expect(try status(["\(base)/push/send-to-user", "-H", "x-api-key: env-key-42", "-d", push]) == "401")   // and the secret
    #expect(try status(["\(base)/push/send-to-user", "-H", "x-api-key: env-key-42", "-H", "x-server-secret: s3", "-d", push]) == "200")
    #expect(try status(["\(base)/state"]) == "200")
    #expect(try status(["\(base)/healthz"]) == "200")
    // The unix socket is this user's: no key.
    let local = try runShadeCommand(["send", "--socket", socket, Build.sample("seed000-send-to-user.json")])
    #expect(local.stdout.hasSuffix(#": {"ok": true, "id": 3}"# + "\n"), "\(local.stdout)")
    // NDJSON over TCP without the key: one error line, then closed (the second line is never read).
    let stream = try runProgram("/usr/bin/python3", ["-c", """
        import socket, sys
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
        s.sendall(b'{"data":{"k":"v"}}\\n')
        print(s.makefile("rb").readline().decode().strip())
        s.sendall(b'{"data":{"k":"v"}}\\n')
        print(repr(s.recv(100)))
        """, port])
    #expect(stream.stdout.hasPrefix(#"{"ok": false, "error": "unauthorized: this Shade was started with --api-key"#), "\(stream.stdout) \(stream.stderr)")
    #expect(stream.stdout.hasSuffix("b''\n"), "\(stream.stdout)")
    #expect(shade.stop() == 0)
    #expect(shade.stdout.text.contains("3 accepted"))
}

extension TerminalUITests {
    @Test func sighupEndsTheLiveUIAsSigtermDoes() throws {
        let socket = Self.socketPath(), record = ServerBuild.temporary("rec.jsonl")
        let pane = try TmuxPane(command: "\(Build.shade) listen --socket \(socket) --port 0 --record \(record)")
        #expect(pane.waitFor("listening on unix"))
        try Self.sendLine(socket, #"{"data":{"k":"v"}}"#)
        let pid = try pane.value("#{pane_pid}")
        let child = try runCommand("/usr/bin/pgrep", ["-P", pid, "-x", "shade"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!child.isEmpty)
        _ = try runCommand("/bin/kill", ["-HUP", child])
        #expect(pane.waitFor("[exit 129]"), "\(pane.text)")
        #expect(try pane.value("#{alternate_on}") == "0")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is removed on the way out")
        #expect(try recordedLines(record).count == 1)
    }
}
