// Shared by the property tests: deterministic random text made of troublesome characters.

/// A small deterministic generator (SplitMix64) for property tests: same cases every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Scalars that have broken terminal layouts: controls, joiners, selectors, marks,
/// skin tones, flag halves, bidi controls, wide and zero-width characters.
let trickyScalars: [Unicode.Scalar] = [
    "a", "Z", " ", "~", "\u{00}", "\u{07}", "\u{08}", "\u{09}", "\u{0A}", "\u{0D}", "\u{1B}", "[", "]", ";",
    "\u{7F}", "\u{85}", "\u{9B}", "\u{9D}", "\u{AD}", "\u{0301}", "\u{0308}", "\u{0644}", "\u{0627}",
    "\u{06CC}", "\u{0600}", "\u{061C}", "\u{0915}", "\u{094D}", "\u{093E}", "\u{0E33}", "\u{1100}",
    "\u{1161}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{200E}", "\u{200F}", "\u{2028}", "\u{2029}",
    "\u{202A}", "\u{202E}", "\u{2060}", "\u{2066}", "\u{2069}", "\u{20E3}", "\u{231A}", "\u{2764}",
    "\u{3000}", "\u{3164}", "\u{738B}", "\u{FE0E}", "\u{FE0F}", "\u{FEFF}", "\u{FF48}", "\u{1F1EE}",
    "\u{1F1F7}", "\u{1F3FB}", "\u{1F3FD}", "\u{1F308}", "\u{1F44D}", "\u{1F468}", "\u{1F469}",
    "\u{1F525}", "\u{E0067}", "\u{E007F}",
]

func randomTrickyString(_ generator: inout SeededGenerator, maxLength: Int = 12) -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...maxLength, using: &generator) {
        scalars.append(trickyScalars.randomElement(using: &generator)!)
    }
    return String(scalars)
}
