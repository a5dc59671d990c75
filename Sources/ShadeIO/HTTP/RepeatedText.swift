/// The text of a request's part (a target, a path, an authority), kept with its bytes and made again
/// only when they change: a client sends its pushes to one path at one host, request after request,
/// and each made the same string again (validated, and allocated past 15 bytes). One per connection.
struct RepeatedText {
    private var bytes: [UInt8] = []
    private var text = ""

    mutating func text(of value: UnsafeBufferPointer<UInt8>) -> String {
        if !value.sameBytes(as: bytes) { (bytes, text) = (Array(value), String(decoding: value, as: UTF8.self)) }
        return text
    }
}

extension HTTPRequest {
    /// A request's method as text: `POST`, what pushes are sent with, is the literal (no string made
    /// and checked for every request); any other is read from its bytes. Both framings use it.
    static func method(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        bytes.sameBytes(as: post) ? "POST" : String(decoding: bytes, as: UTF8.self)
    }

    private static let post = Array("POST".utf8)
}
