import Glibc

extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether these bytes are `other`'s, byte for byte: the one comparison for what a request repeats
    /// (a kept target, path or authority, a header name, a transport's metadata).
    func sameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        count == other.count && (isEmpty || memcmp(baseAddress!, other.baseAddress!, count) == 0)
    }

    func sameBytes(as other: [UInt8]) -> Bool {
        other.withUnsafeBufferPointer { sameBytes(as: $0) }
    }
}
