import Testing
import ShadeCore

// Numbers a payload controls never trap: they saturate.

@Test(arguments: [
    (Int.max, 1, Int.max), (Int.min, -1, Int.min), (2, 3, 5), (Int.max, Int.min, -1),
])
func checkedAddSaturates(_ a: Int, _ b: Int, _ expected: Int) {
    #expect(Checked.add(a, b) == expected)
}

@Test(arguments: [
    (Int.max, 2, Int.max), (Int.min, 2, Int.min), (Int.min, -1, Int.max), (-3, 4, -12), (1 << 40, 1 << 40, Int.max),
])
func checkedMultiplySaturates(_ a: Int, _ b: Int, _ expected: Int) {
    #expect(Checked.multiply(a, b) == expected)
}

@Test func checkedSubtractAndMagnitudeNeverTrap() {
    #expect(Checked.subtract(Int.min, 1) == Int.min)
    #expect(Checked.subtract(Int.max, -1) == Int.max)
    #expect(Checked.magnitude(Int.min) == Int.max)
    #expect(Checked.magnitude(-7) == 7)
    #expect(Checked.clamp(900, to: 0...400) == 400)
}

@Test(arguments: [
    ("12", 12), ("-9223372036854775808", Int.min), ("9223372036854775808", Int.max),
    ("-99999999999999999999999", Int.min), ("+7", 7), ("00042", 42),
])
func checkedIntegerParsesAnyDigitsWithoutOverflow(_ text: String, _ expected: Int) {
    #expect(Checked.integer(text) == expected)
}

@Test(arguments: ["", "-", "1e3", " 1", "1.5", "x"])
func checkedIntegerRefusesWhatIsNotAnInteger(_ text: String) {
    #expect(Checked.integer(text) == nil)
}
