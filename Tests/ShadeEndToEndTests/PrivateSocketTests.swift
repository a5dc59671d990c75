import Foundation
import Testing
import ShadeCore

// Issue 10, finding 6: with XDG_RUNTIME_DIR unset the socket was /tmp/shade-UID.sock, which another user
// could create first; then `listen` refused to start and `shade send` delivered to the squatter and
// reported success. Now the default socket is in a private directory, and `send` refuses a socket owned
// by another user, or one another user's process listens on.

/// The uid of `nobody`: another user on every Debian machine.
let nobody: UInt32 = 65534

@Test func finding6_listenMakesThePrivateDirectoryAndSendFindsItsSocketThere() throws {
    let runtime = ServerBuild.temporary("runtime")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    let shade = try ShadeProcess(["listen", "--headless", "--port", "0"], environment: ["XDG_RUNTIME_DIR": runtime])
    defer { _ = shade.stop(signal: SIGKILL) }
    let socket = runtime + "/shade/shade.sock"
    #expect(shade.waitForOutput(matching: "listening on unix (\\S+) and") == socket)
    let attributes = try FileManager.default.attributesOfItem(atPath: runtime + "/shade")
    #expect(attributes[.posixPermissions] as? Int == 0o700)
    let sent = try runShadeCommand(["send", Build.sample("seed000-send-to-user.json")], environment: ["XDG_RUNTIME_DIR": runtime])
    #expect(sent.stdout.hasSuffix(#": {"ok": true, "id": 1}"# + "\n"), "\(sent.stdout) \(sent.stderr)")
    #expect(shade.stop() == 0)
    #expect(!FileManager.default.fileExists(atPath: socket))
}

@Test func finding6_aSocketDirectoryOpenToOthersIsMadePrivate() throws {
    let runtime = ServerBuild.temporary("runtime")
    try FileManager.default.createDirectory(atPath: runtime + "/shade", withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o777])
    let shade = try ShadeProcess(["listen", "--headless", "--port", "0"], environment: ["XDG_RUNTIME_DIR": runtime])
    defer { _ = shade.stop(signal: SIGKILL) }
    #expect(shade.waitForOutput(matching: "listening on") != nil)
    #expect(try FileManager.default.attributesOfItem(atPath: runtime + "/shade")[.posixPermissions] as? Int == 0o700)
    #expect(shade.stop() == 0)
}

@Test func finding6_listenRefusesASocketDirectoryAnotherUserOwns() throws {
    let runtime = ServerBuild.temporary("runtime")
    try FileManager.default.createDirectory(atPath: runtime + "/shade", withIntermediateDirectories: true)
    guard chown(runtime + "/shade", nobody, nobody) == 0 else {
        Issue.record("chown to nobody needs root: \(String(cString: strerror(errno)))")
        return
    }
    let result = try runShadeCommand(["listen", "--headless", "--port", "0"], environment: ["XDG_RUNTIME_DIR": runtime], timeout: 10)
    #expect(result.status == 2)
    #expect(result.stderr == "shade: the socket directory \(runtime)/shade: belongs to user 65534, not to you (\(getuid())): another "
        + "user may have made it to intercept Shade — remove it or choose another place\n")
    #expect(!FileManager.default.fileExists(atPath: runtime + "/shade/shade.sock"))
}

/// A squatter: listens on `path` as `nobody` (binding as nobody, or as us and then dropping to nobody
/// before listen), answers every line `{"ok": true, "id": 1}`, and writes what it received to `log`.
let squatter = """
import os, socket, sys
path, log, bind_first = sys.argv[1], sys.argv[2], sys.argv[3] == "bind-first"
s = socket.socket(socket.AF_UNIX)
if bind_first: s.bind(path)
os.setgid(65534); os.setuid(65534)
if not bind_first: s.bind(path)
s.listen(1)
print("ready", flush=True)
connection, _ = s.accept()
received = b""
while True:
    chunk = connection.recv(65536)
    if not chunk: break
    received += chunk
    connection.sendall(b'{"ok": true, "id": 1}\\n' * chunk.count(b"\\n"))
open(log, "wb").write(received)
"""

@Test(arguments: ["bind-as-nobody", "bind-first"])
func finding6_sendRefusesASocketAnotherUserListensOnAndSendsNothing(mode: String) throws {
    let directory = ServerBuild.temporary("squat")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
    let path = directory + "/shade.sock", log = directory + "/received"
    _ = FileManager.default.createFile(atPath: log, contents: Data(), attributes: [.posixPermissions: 0o666])
    let squat = try ShadeProcess(["-c", squatter, path, log, mode], executable: "/usr/bin/python3")
    defer { _ = squat.stop(signal: SIGKILL) }
    guard squat.waitForOutput(matching: "ready") != nil else {
        Issue.record("the squatter did not start (setuid needs root): \(squat.stderr.text)")
        return
    }
    let sent = try runShadeCommand(["send", "--socket", path, Build.sample("seed000-send-to-user.json")], timeout: 10)
    #expect(sent.status == 2)
    #expect(sent.stdout == "")
    let expected = mode == "bind-first"
        ? "runs as user 65534, not as you (\(getuid())), so nothing was sent"
        : "\(path) belongs to user 65534, not to you (\(getuid())): another user may be listening in Shade's place, so nothing was sent"
    #expect(sent.stderr.contains(expected), "\(sent.stderr)")
    if mode == "bind-first" {
        // It accepted us: it writes what it got once we hang up, and ends.
        let deadline = Date().addingTimeInterval(5)
        while squat.process.isRunning && Date() < deadline { usleep(10_000) }
        #expect(!squat.process.isRunning)
    }
    _ = squat.stop(signal: SIGKILL)   // blocked in accept() otherwise
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)).isEmpty)
}
