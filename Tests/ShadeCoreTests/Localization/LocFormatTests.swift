import Testing
@testable import ShadeCore

/// SPEC L3 (formats) and the L6 part that the formatter reports.
struct LocFormatTests {
    @Test(arguments: [
        // The seed's `$N` notation.
        ("$1: $2", ["Alice", "Hello"], "Alice: Hello"),
        ("$2 and $1", ["Alice", "Hello"], "Hello and Alice"),
        ("对方传了 $1$2", ["Alice", "Hello"], "对方传了 AliceHello"),
        ("costs $0 and $", ["Alice"], "costs $0 and $"),
        // Seed 001: the same string resource on iOS and on Android.
        ("%1$@: %2$@", ["Alice", "Hello"], "Alice: Hello"),
        ("%1$s: %2$s", ["Alice", "Hello"], "Alice: Hello"),
        ("%2$@ ← %1$@", ["Alice", "Hello"], "Hello ← Alice"),
        ("%@ says %@", ["Alice", "Hello"], "Alice says Hello"),
        ("%s says %s", ["Alice", "Hello"], "Alice says Hello"),
        ("%S and %ls", ["Alice", "Hello"], "Alice and Hello"),
        // Numbers.
        ("%d new", ["3"], "3 new"),
        ("%i new", ["3"], "3 new"),
        ("%u new", ["3"], "3 new"),
        ("%ld / %lld / %qd / %hd", ["12", "-7", "8", "+9"], "12 / -7 / 8 / 9"),
        ("%2$d of %1$d", ["10", "3"], "3 of 10"),
        ("%05d|%+d|%-4d|%4d|% d", ["42", "5", "7", "-7", "3"], "00042|+5|7   |  -7| 3"),
        ("%.3d", ["7"], "007"),
        ("%x %X %#x %o %#o", ["255", "255", "255", "8", "8"], "ff FF 0xff 10 010"),
        ("%f", ["3.14159"], "3.141590"),
        ("%.2f", ["3.14159"], "3.14"),
        ("%.1f", ["0.25"], "0.2"),
        ("%.1f", ["0.35"], "0.4"),
        ("%.0f %.0f", ["2.5", "3.5"], "2 4"),
        ("%.2f", ["9.999"], "10.00"),
        ("%8.3f|", ["-1.5"], "  -1.500|"),
        ("%08.2f", ["-1.5"], "-0001.50"),
        ("%.2f", ["1e3"], "1000.00"),
        ("%.3f", ["2.5E-2"], "0.025"),
        ("%lf", ["2"], "2.000000"),
        ("%F %f", ["inf", "-inf"], "INF -inf"),
        // Text layout and literals.
        ("100%%", [], "100%"),
        ("%5s|%-5s|", ["ab", "cd"], "   ab|cd   |"),
        ("%.3s", ["Alexander"], "Ale"),
        ("%3$s %1$s", ["a", "b", "c"], "c a"),
        ("line%nbreak", [], "line\nbreak"),
    ])
    func L3_formatForms(format: String, args: [String], text: String) {
        let formatted = formatLocalized(format, args: args)
        #expect(formatted.text(missing: .iOS) == text)
        #expect(formatted.text(missing: .android) == text)
        #expect(formatted.missingArguments == [])
    }

    @Test func L3_piecesKeepArgumentsApart() {
        #expect(formatLocalized("%1$@: %2$@", args: ["Alice", "Hello"]) == FormattedText(
            pieces: [.argument(index: 1, text: "Alice"), .literal(": "), .argument(index: 2, text: "Hello")],
            missingArguments: [], unusedArguments: [], warnings: []))
    }

    @Test func L3_stringGivenToIntegerIsInsertedWithWarning() {
        #expect(formatLocalized("%d points", args: ["Alice"]) == FormattedText(
            pieces: [.argument(index: 1, text: "Alice"), .literal(" points")],
            missingArguments: [], unusedArguments: [],
            warnings: ["L3: `%d` expects an integer but argument 1 is `Alice`; inserted as text"]))
    }

    @Test func L3_nonIntegerNumbersAndNegativesForUnsigned() {
        #expect(formatLocalized("%d|%u|%f", args: ["2.5", "-1", "1,5"]) == FormattedText(
            pieces: [.argument(index: 1, text: "2.5"), .literal("|"), .argument(index: 2, text: "-1"),
                     .literal("|"), .argument(index: 3, text: "1,5")],
            missingArguments: [], unusedArguments: [],
            warnings: [
                "L3: `%d` expects an integer but argument 1 is `2.5`; inserted as text",
                "L3: `%u` expects a non-negative integer but argument 2 is `-1`; inserted as text",
                "L3: `%f` expects a number but argument 3 is `1,5`; inserted as text",
            ]))
    }

    @Test func L3_unknownSpecifierStaysAsTextAndTakesNoArgument() {
        #expect(formatLocalized("%k and %@", args: ["a"]) == FormattedText(
            pieces: [.literal("%k and "), .argument(index: 1, text: "a")],
            missingArguments: [], unusedArguments: [],
            warnings: ["L3: `%k` is not a format Shade knows; shown as written (write `%%` for a percent sign)"]))
    }

    @Test func L3_lonePercentAtTheEnd() {
        #expect(formatLocalized("50%", args: []) == FormattedText(
            pieces: [.literal("50%")], missingArguments: [], unusedArguments: [],
            warnings: ["L3: a lone `%` ends the format; write `%%` for a percent sign"]))
        #expect(formatLocalized("50%.2", args: []).warnings
            == ["L3: `%.2` at the end of the format has no conversion letter; shown as written (write `%%` for a percent sign)"])
    }

    // "50% off" is `% o`: an octal conversion with the space flag, as printf and Java read it.
    @Test func L3_percentSpaceReadsAsSpecifier() {
        #expect(formatLocalized("50% off", args: ["x"]) == FormattedText(
            pieces: [.literal("50"), .argument(index: 1, text: "x"), .literal("ff")],
            missingArguments: [], unusedArguments: [],
            warnings: [
                "L3: `% o` reads as a format specifier (`%` followed by a space); write `%%` if a percent sign was meant",
                "L3: `% o` expects a non-negative integer but argument 1 is `x`; inserted as text",
            ]))
    }

    @Test func L3_conversionsShownAsWritten() {
        #expect(formatLocalized("%e", args: ["1.5"]) == FormattedText(
            pieces: [.argument(index: 1, text: "1.5")], missingArguments: [], unusedArguments: [],
            warnings: ["L3: `%e` is shown as argument 1's own text; Shade formats %@ %s %d %i %u %x %o %f"]))
    }

    @Test func L3_mixingPositionalAndSequentialIsWarned() {
        let formatted = formatLocalized("%2$@ %@", args: ["a", "b"])
        #expect(formatted.text(missing: .iOS) == "b a")
        #expect(formatted.warnings == ["L3: the format mixes positional (`%1$@`) and sequential (`%@`) specifiers; iOS does not define which argument each one takes — number them all"])
    }

    @Test func L3_percentIsLiteralKeepsPercentButFillsDollar() {
        let formatted = formatLocalized("100% of %1$s and $1", args: ["A"], percentIsLiteral: true)
        #expect(formatted.text(missing: .android) == "100% of %1$s and A")
        #expect(formatted.warnings == [])
    }

    @Test func L6_tooFewArguments() {
        let formatted = formatLocalized("$1 邀请了 $2", args: ["Alice"])
        #expect(formatted == FormattedText(
            pieces: [.argument(index: 1, text: "Alice"), .literal(" 邀请了 "), .missing(index: 2)],
            missingArguments: [2], unusedArguments: [], warnings: []))
        #expect(formatted.text(missing: .iOS) == "Alice 邀请了 (null)")
        #expect(formatted.text(missing: .android) == nil)
    }

    @Test func L6_eachMissingArgumentIsNullOnIOS() {
        let formatted = formatLocalized("%@ %@ %3$@ %@", args: [])
        #expect(formatted.text(missing: .iOS) == "(null) (null) (null) (null)")
        #expect(formatted.missingArguments == [1, 2, 3])
    }

    @Test func L6_extraArgumentsAreIgnoredButReported() {
        let formatted = formatLocalized("$2 only", args: ["a", "b", "c"])
        #expect(formatted.text(missing: .android) == "b only")
        #expect(formatted.unusedArguments == [1, 3])
        #expect(formatted.unusedArgumentCount == 2)
    }
}
