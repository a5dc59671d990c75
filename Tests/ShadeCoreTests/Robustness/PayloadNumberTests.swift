import Testing
@testable import ShadeCore

// Issue 10, finding 1: numbers a payload controls never trap. A 72-byte push whose `loc-args` held
// `1e-9223372036854775808` killed `shade listen`: `abs(Int.min)` in the `%f` formatter. Every such
// number now flows through `Checked`.

@Test(arguments: [
    // The fuzzer's input: the exponent is Int.min. Not renderable as a number, so shown as written.
    ("%f", "1e-9223372036854775808", "1e-9223372036854775808"),
    // Past Double's range printf prints infinity; the exponent's digits never overflow on the way.
    ("%f", "1e9223372036854775807", "inf"),
    ("%f", "1E-99999999999999999999999999", "1E-99999999999999999999999999"),
    ("%.1f", "-5e+9223372036854775808", "-inf"),
    // The bound itself still renders; one past it is text.
    ("%.2f", "1e-400", "0.00"),
    ("%f", "1e-401", "1e-401"),
    ("%.0f", "1e3", "1000"),
])
func finding1_anyExponentIsANumberOrTextNeverATrap(format: String, argument: String, text: String) {
    let formatted = formatLocalized(format, args: [argument])
    #expect(formatted.text(missing: .iOS) == text)
    #expect(formatted.text(missing: .android) == text)
}

@Test func finding1_widthsAndPrecisionsOfAnyLengthArePinned() {
    let wide = formatLocalized("%99999999999999999999999d|", args: ["5"]).text(missing: .iOS)
    #expect(wide == String(repeating: " ", count: 999) + "5|")
    let precise = formatLocalized("%.99999999999999999999999f", args: ["1"]).text(missing: .iOS)
    #expect(precise == "1." + String(repeating: "0", count: 1000))
    // A position has at most 4 digits (then the digits are a width, and `$` no conversion); `$N` 2.
    let positional = formatLocalized("%99999999999999999999$@ and $99999999999999999999", args: ["a"])
    #expect(positional.text(missing: .iOS) == "%99999999999999999999$@ and (null)" + String(repeating: "9", count: 18))
}

@Test(arguments: [
    ("99999999999999999999", Int.max), ("-99999999999999999999", Int.min), ("\"99999999999999999999\"", Int.max),
    ("1e3", 1000), ("1e400", nil), ("-0", 0), ("3.5", nil),
])
func finding1_integersOfAnyLengthSaturate(lexeme: String, value: Int?) throws {
    #expect(try JSONParser.parse(lexeme).int == value)
}

@Test func finding1_aHugeBadgeSaturatesInsteadOfTrapping() {
    let ios = center(#"{"aps":{"alert":"hi","badge":99999999999999999999}}"#, Profile(platform: .ios))
    #expect(ios.badge == Int.max)
    let android = center(#"{"to":"t","notification":{"title":"t","body":"b","badge":"-99999999999999999999"}}"#)
    #expect(android.badge == 0)
}

@Test func finding1_theFuzzedPushShowsItsArgumentOnIOSAndIsElsewhereOnTheOthers() throws {
    let bytes = try fixtureBytes("regressions/loc-args-exponent-int-min.apns")
    #expect(bytes.count == 72)
    let states = centers(document: String(decoding: bytes, as: UTF8.self), everyPlatform)
    #expect(digest(states) == """
        android received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0

        ios received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
        Notification Center
          {"kind":"plain","key":"app","app":"app","lines":[{"text":"1e-9223372036854775808"}],"total":1}

        web received=1 shown=0 silent=0 calls=0 rejected=0 elsewhere=1 badge=0
        """)
    let lint = Lint.document(bytes, source: "f.apns")
    #expect(lint.map(\.diagnostics.count) == [1])
    #expect(lint.first?.diagnostics.first?.rule == "V6")
}

@Test func finding1_anAndroidTableHoldingPercentFFormatsTheSameArgument() throws {
    let table = try StringTable.parse(try fixtureBytes("regressions/percent-f-strings.xml"), name: "strings.xml")
    let texts = TextResolver(tables: StringTables(user: [table]))
    var android = Center(profile: Profile(platform: .android), texts: texts)
    var intake = Intake()
    for outcome in intake.document(try fixtureBytes("regressions/fcm-loc-args-exponent-int-min.json"), source: "f.json") {
        android.apply(outcome)
    }
    #expect(digest(android) == """
        android received=1 shown=1 silent=0 calls=0 rejected=0 elsewhere=0 badge=0
        Notifications
          {"kind":"plain","key":"n1","app":"app","title":"Price","lines":[{"text":"1e-9223372036854775808"}],"total":1}
        """)
}

// Timestamps are read in fixed-width fields, so no digit string can overflow the arithmetic.
@Test(arguments: [
    ("9999-12-31T23:59:60.999999999999999999999999-23:59", Int64(253_402_387_140_999)),
    ("0000-01-01T00:00:00+23:59", Int64(-62_167_305_540_000)),
])
func finding1_extremeTimestampsParseWithoutOverflow(text: String, millis: Int64) {
    #expect(Timestamp.millis(fromISO8601: text) == millis)
}

@Test func finding1_doublesBecomeInt64WithoutTrapping() {
    #expect(Checked.int64(Double(Int64.max)) == Int64.max)
    #expect(Checked.int64(-.infinity) == Int64.min)
    #expect(Checked.int64(.nan) == 0)
    #expect(Checked.int64(-2.9) == -2)
    #expect(Checked.subtract(Int64.max, Int64.min) == Int64.max)
}
