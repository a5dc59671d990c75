// seeds: payloads
// The JSON parser on any bytes: it never traps, and what it accepts the writer writes back, compact and
// pretty, as text that parses to the same value, holds no raw control byte, and is as long as
// `compactSize` says once the escapes only Shade writes are taken out: `compactSize` is the size a
// sender's serializer produces (APNs counts those bytes, I9), which leaves DEL and C1 raw, while
// Shade's own output escapes them so no terminal acts on them.
import FuzzSupport
import ShadeCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJSONParser(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, count)
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    let compact = JSONWriter.compactBytes(value)
    let wire = compact.count - terminalOnlyEscapeBytes(value)
    Fuzz.require(JSONWriter.compactSize(value) == wire, "compactSize \(JSONWriter.compactSize(value)) for \(wire) wire bytes")
    Fuzz.expectNoControlBytes(compact, "the compact JSON")
    Fuzz.require((try? JSONParser.parse(compact)) == value, "the compact JSON does not parse back to the same value")
    let pretty = JSONWriter.pretty(value)
    Fuzz.expectNoControlBytes(pretty, "the pretty JSON")
    Fuzz.require((try? JSONParser.parse(pretty)) == value, "the pretty JSON does not parse back to the same value")
    return 0
}

/// What Shade's escapes of DEL (1 byte → `\u007f`, 6) and C1 (2 bytes → `\u0080`, 6) add over a
/// sender's compact text.
func terminalOnlyEscapeBytes(_ value: JSON) -> Int {
    func inString(_ s: String) -> Int {
        s.unicodeScalars.reduce(0) { sum, u in
            u.value == 0x7F ? sum + 5 : (0x80...0x9F).contains(u.value) ? sum + 4 : sum
        }
    }
    switch value {
    case .null, .bool, .number: return 0
    case .string(let s): return inString(s)
    case .array(let a): return a.reduce(0) { $0 + terminalOnlyEscapeBytes($1) }
    case .object(let o): return o.members.reduce(0) { $0 + inString($1.key) + terminalOnlyEscapeBytes($1.value) }
    }
}

Fuzz.main(fuzzJSONParser)
