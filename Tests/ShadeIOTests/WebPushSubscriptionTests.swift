import Foundation
import Testing
@testable import ShadeIO

// The subscription's keys: made once, kept 0600, the same on every later run; a damaged file is
// refused with what to do, never silently replaced (a backend may hold the old subscription).

@Test func theSubscriptionIsMadeOnceAndKeptAcrossRuns() throws {
    let directory = temporaryFile("webpush")
    let first = try WebPushSubscription.loadOrCreate(directory: directory)
    let again = try WebPushSubscription.loadOrCreate(directory: directory)
    #expect(again.text(origin: "http://127.0.0.1:4747") == first.text(origin: "http://127.0.0.1:4747"))
    #expect(first.id.count == 16)
    let file = directory + "/" + WebPushSubscription.fileName
    #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
    #expect(try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int == 0o700)
}

@Test(arguments: [
    ("not json", "is not JSON"),
    (#"{"p256dh":"AAAA","auth":"AAAAAAAAAAAAAAAAAAAAAA","privateKey":"AAAA"}"#, "has no p256dh of 65 bytes (base64url)"),
    (#"{"p256dh":"\#(RFC8291Example.receiverPublic)","auth":"\#(RFC8291Example.authSecret)","privateKey":"\#(Base64URL.encode([UInt8](repeating: 7, count: 32)))"}"#,
     "holds keys OpenSSL refuses (the private key does not match the public key"),
])
func aDamagedSubscriptionFileSaysWhatToDo(contents: String, problem: String) throws {
    let directory = temporaryFile("webpush")
    try PrivateFiles.directory(directory)
    let file = directory + "/" + WebPushSubscription.fileName
    try PrivateFiles.write(Array(contents.utf8), to: file)
    let error = #expect(throws: PrivateFileError.self) { try WebPushSubscription.loadOrCreate(directory: directory) }
    // OpenSSL may add its own reason inside the parentheses; what Shade says around it is fixed.
    #expect(error?.path == file)
    #expect(error?.reason.hasPrefix(problem) == true)
    #expect(error?.reason.hasSuffix(" — remove the file to have Shade make a new subscription (senders must then use the new one)") == true)
}
