import Foundation
import Glibc
import Testing
import ShadeIO

private func scratch() -> String {
    NSTemporaryDirectory() + "shade-private-\(UUID().uuidString.prefix(8))"
}

private func mode(_ path: String) -> mode_t {
    var status = stat()
    lstat(path, &status)
    return status.st_mode & 0o777
}

@Test func privateDirectoryIsCreated0700WithItsParents() throws {
    let root = scratch()
    try PrivateFiles.directory(root + "/a/b")
    #expect(mode(root + "/a/b") == 0o700)
    #expect(mode(root + "/a") == 0o700)
}

@Test func privateDirectoryOfOursOpenToOthersIsTightened() throws {
    let root = scratch()
    mkdir(root, 0o755)
    chmod(root, 0o777)
    try PrivateFiles.directory(root)
    #expect(mode(root) == 0o700)
}

@Test func privateDirectoryRefusesASymlinkAFileAndAnotherUsersDirectory() throws {
    let root = scratch()
    try PrivateFiles.directory(root)
    symlink("/tmp", root + "/link")
    #expect(throws: PrivateFileError.self) { try PrivateFiles.directory(root + "/link") }
    _ = FileManager.default.createFile(atPath: root + "/file", contents: Data())
    #expect(throws: PrivateFileError.self) { try PrivateFiles.directory(root + "/file") }
    // Owned by someone else: seen through a uid that is not ours.
    let error = #expect(throws: PrivateFileError.self) { try PrivateFiles.directory(root, uid: getuid() + 1) }
    #expect(error?.reason.contains("not to you") == true)
}

@Test func privateFileIsWritten0600AndReadBack() throws {
    let root = scratch()
    try PrivateFiles.directory(root)
    try PrivateFiles.write(Array("secret".utf8), to: root + "/key.pem")
    #expect(mode(root + "/key.pem") == 0o600)
    #expect(try PrivateFiles.read(root + "/key.pem") == Array("secret".utf8))
    #expect(try PrivateFiles.read(root + "/missing") == nil)
    chmod(root + "/key.pem", 0o644)
    let error = #expect(throws: PrivateFileError.self) { try PrivateFiles.read(root + "/key.pem") }
    #expect(error?.reason.contains("chmod 600") == true)
}

@Test func dataDirectoryFollowsXDGDataHomeElseHome() {
    #expect(DataDirectory.root(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/u"]) == "/x/data/shade")
    #expect(DataDirectory.root(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.local/share/shade")
    #expect(DataDirectory.certificateAuthority(environment: ["HOME": "/home/u/"]) == "/home/u/.local/share/shade/ca")
    #expect(DataDirectory.webPush(environment: ["XDG_DATA_HOME": "/d/"]) == "/d/shade/webpush")
}
