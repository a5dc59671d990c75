// seeds: formats
// The localisation formatter on any format and arguments (NUL-separated: the format, then each
// argument): no trap, no runaway output (widths and precisions are pinned), and the pieces agree with
// the text each platform shows.
import FuzzSupport
import ShadeCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzLocFormat(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let parts = Fuzz.bytes(data, count).split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    let format = parts[0]
    let args = Array(parts.dropFirst())
    for literal in [false, true] {
        let formatted = formatLocalized(format, args: args, percentIsLiteral: literal)
        let ios = formatted.text(missing: .iOS) ?? ""
        // Each specifier adds at most a 1000-column field (or an argument longer than that).
        let bound = (format.unicodeScalars.count + 1) * (1001 + args.map(\.unicodeScalars.count).reduce(0, +) + 6)
        Fuzz.require(ios.unicodeScalars.count <= bound, "\(ios.unicodeScalars.count) characters out of a \(format.unicodeScalars.count)-character format")
        Fuzz.require(formatted.missingArguments.allSatisfy { $0 > args.count }, "a missing argument that was given")
        if formatted.missingArguments.isEmpty {
            Fuzz.require(formatted.text(missing: .android) == ios, "the platforms disagree with every argument given")
        } else {
            Fuzz.require(formatted.text(missing: .android) == nil, "Android shows a text with an argument missing")
        }
    }
    return 0
}

Fuzz.main(fuzzLocFormat)
