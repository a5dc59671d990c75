@testable import ShadeCore

/// Test bytes in the encodings string tables come in.
enum TableBytes {
    static func utf8(_ text: String, bom: Bool = false) -> [UInt8] {
        (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
    }

    static func utf16LE(_ text: String, bom: Bool = true) -> [UInt8] {
        (bom ? [0xFF, 0xFE] : []) + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    static func utf16BE(_ text: String, bom: Bool = true) -> [UInt8] {
        (bom ? [0xFE, 0xFF] : []) + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// The message of the error parsing `bytes` throws, or nil when it parses.
    static func errorMessage(_ bytes: [UInt8], name: String) -> String? {
        do {
            _ = try StringTable.parse(bytes, name: name)
            return nil
        } catch {
            return error.message
        }
    }
}
