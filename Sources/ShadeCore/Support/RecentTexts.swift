/// Strings made lately, found again by their bytes. A recording's or a stream's lines mostly repeat
/// their envelope's route, channel and headers; making a `String` of the same bytes each line (UTF-8
/// checked again, and an allocation past 15 bytes) cost several times what comparing the bytes does.
/// A small direct-mapped table, slotted by a hash of the text's first and last eight bytes and its
/// length (routes share their starts, collapse ids their lengths): a text whose slot another took is
/// simply made again.
struct RecentTexts: Sendable {
    private var slots: [String?] = Array(repeating: nil, count: 1 << RecentTexts.slotBits)
    private static let slotBits = 6

    init() {}

    /// The string `make` gives for `bytes`, or a kept one whose UTF-8 is `bytes`. So `make` must give
    /// back the same string for the bytes of any string it made: decoding valid UTF-8 does, and so
    /// does lowercasing (a name that was not lowercase misses, and is lowercased again).
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>, make: (UnsafeBufferPointer<UInt8>) -> String) -> String {
        let count = bytes.count
        let slot = Self.slot(bytes)
        if var kept = slots[slot] {
            let same = kept.withUTF8 { stored in
                stored.count == count && (count == 0 || JSONTape.bytesEqual(stored.baseAddress!, bytes.baseAddress!, count))
            }
            if same { return kept }
        }
        let made = make(bytes)
        slots[slot] = made
        return made
    }

    private static func slot(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let count = bytes.count
        var first: UInt64 = 0, last: UInt64 = 0
        if count >= 8 {
            let base = UnsafeRawPointer(bytes.baseAddress!)
            first = base.loadUnaligned(as: UInt64.self)
            last = base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            for i in 0..<count { first |= UInt64(bytes[i]) << (8 * UInt64(i)) }
        }
        let mixed = (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
        return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> (64 - UInt64(slotBits)))
    }
}
