// seeds: payloads
// The JSON parser on any bytes: it never traps, and what it accepts the writer writes back, compact and
// pretty, as text that parses to the same value, holds no raw control byte and is as long as
// `compactSize` says (APNs sizes are measured with it, I9).
import FuzzSupport
import ShadeCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJSONParser(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, count)
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    let compact = JSONWriter.compactBytes(value)
    Fuzz.require(JSONWriter.compactSize(value) == compact.count, "compactSize \(JSONWriter.compactSize(value)) for \(compact.count) bytes")
    Fuzz.expectNoControlBytes(compact, "the compact JSON")
    Fuzz.require((try? JSONParser.parse(compact)) == value, "the compact JSON does not parse back to the same value")
    let pretty = JSONWriter.pretty(value)
    Fuzz.expectNoControlBytes(pretty, "the pretty JSON")
    Fuzz.require((try? JSONParser.parse(pretty)) == value, "the pretty JSON does not parse back to the same value")
    return 0
}

Fuzz.main(fuzzJSONParser)
