// Cuts an input into the pieces a socket might deliver it in, as one byte of the input says.

/// The sizes of the pieces to feed, chosen by one byte: below 0x80 every piece is `byte % 64` bytes
/// (0: the whole input at once, 1: one byte at a time); from 0x80 on, each piece has its own size
/// (1 to 97 bytes) from a small generator seeded by the byte, so the fuzzer reaches uneven cuts too.
public struct Pieces: Sequence, IteratorProtocol {
    private var state: UInt32
    private let fixed: Int?
    private var left: Int

    public init(of count: Int, cutBy byte: UInt8) {
        state = UInt32(byte) &* 2_654_435_761 | 1
        fixed = byte < 0x80 ? Int(byte % 64) : nil
        left = count
    }

    public mutating func next() -> Int? {
        guard left > 0 else { return nil }
        let size: Int
        if let fixed {
            size = fixed == 0 ? left : fixed
        } else {
            state = state &* 1_103_515_245 &+ 12_345
            size = 1 + Int((state >> 16) % 97)
        }
        let piece = Swift.min(size, left)
        left -= piece
        return piece
    }

    /// `bytes` as consecutive slices of those sizes.
    public static func slices(_ bytes: ArraySlice<UInt8>, cutBy byte: UInt8) -> [ArraySlice<UInt8>] {
        var slices: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        for size in Pieces(of: bytes.count, cutBy: byte) {
            slices.append(bytes[start..<(start + size)])
            start += size
        }
        return slices
    }
}
