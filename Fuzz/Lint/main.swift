// seeds: payloads
// `lint` on any bytes, as a whole document and as NDJSON lines: no trap, every diagnostic has a rule and
// a line within the input, and both reports (text and JSON) hold no raw control byte.
import FuzzSupport
import ShadeCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzLint(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, count)
    let lineCount = bytes.count { $0 == 0x0A } + 1
    for pushes in [Lint.document(bytes, source: "fuzz.json"), Lint.lines(bytes, source: "fuzz.jsonl")] {
        for push in pushes {
            for d in push.diagnostics {
                Fuzz.require(!d.rule.isEmpty, "a diagnostic without a rule")
                Fuzz.require((1...lineCount).contains(d.line ?? push.source.line ?? 1), "line \(d.line ?? -1) of \(lineCount)")
            }
        }
        let report = LintReport(pushes: pushes).collapsingRepeatedNotes()
        Fuzz.expectNoControlBytes(report.text(), "the text report")
        let json = report.json()
        Fuzz.expectNoControlBytes(json, "the JSON report")
        Fuzz.require((try? JSONParser.parse(json)) != nil, "the JSON report does not parse")
    }
    return 0
}

Fuzz.main(fuzzLint)
