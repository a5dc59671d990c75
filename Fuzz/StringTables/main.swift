// seeds: strings
// String tables on any bytes, as `.strings`, `strings.xml` or JSON (the first byte picks): no trap; an
// error names file and line in text without a raw control byte; a table that parses resolves its own
// keys through both platforms' localizers.
import FuzzSupport
import ShadeCore

nonisolated let names = ["Localizable.strings", "strings.xml", "strings.json"]

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzStringTables(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, count)
    guard let first = bytes.first else { return 0 }
    let name = names[Int(first) % names.count]
    let table: StringTable
    do {
        table = try StringTable.parse(Array(bytes.dropFirst()), name: name)
    } catch {
        Fuzz.require(error.message.hasPrefix(name + ":"), "an error that does not name the file: \(error.message)")
        Fuzz.expectNoControlBytes(error.message, "the error")
        return 0
    }
    let tables = StringTables(user: [table])
    for key in table.entries.keys.sorted().prefix(8) {
        _ = resolveIOS(key: key, args: ["a", "1", "-2.5"], tables: tables)
        _ = resolveAndroid(key: key, args: ["a"], tables: tables)
    }
    return 0
}

Fuzz.main(fuzzStringTables)
