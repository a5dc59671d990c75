import Testing
@testable import ShadeTerminal
import ShadeUI

struct ColorDepthTests {
    @Test(arguments: [
        (ColorMode.auto, nil as String?, 256, ColorDepth.indexed256),
        (.auto, nil, 88, .basic8),
        (.auto, nil, 16, .basic8),
        (.auto, nil, 8, .basic8),
        (.auto, nil, 2, .monochrome),
        (.auto, nil, 0, .monochrome),
        (.auto, "", 256, .indexed256),   // NO_COLOR set but empty does not count (no-color.org)
        (.auto, "1", 256, .monochrome),
        (.auto, "0", 8, .monochrome),    // any non-empty value, even "0"
        (.none, nil, 256, .monochrome),  // --no-color
    ])
    func depthFromModeEnvironmentAndColors(mode: ColorMode, noColor: String?, colors: Int, expected: ColorDepth) {
        #expect(ColorDepth.choose(mode: mode, noColor: noColor, colors: colors) == expected)
    }

    @Test func colorIsNeverStartedWhenOff() {
        #expect(ColorDepth.wantsColor(mode: .auto, noColor: nil))
        #expect(!ColorDepth.wantsColor(mode: .auto, noColor: "yes"))
        #expect(!ColorDepth.wantsColor(mode: .none, noColor: nil))
    }
}

struct LookTests {
    @Test(arguments: [
        (Style(bold: true, dim: true, reverse: true, underline: true), ColorDepth.monochrome,
         Look(attributes: [.bold, .dim, .reverse, .underline])),
        (Style(bold: true, dim: true, reverse: true, underline: true), .indexed256,
         Look(attributes: [.bold, .dim, .reverse, .underline])),
        (Style.plain, .indexed256, Look()),
        // Roles
        (Style(foreground: .accent), .indexed256, Look(foreground: 39)),
        (Style(foreground: .muted), .indexed256, Look(foreground: 245)),
        (Style(background: .muted), .indexed256, Look(background: 237)),
        (Style(foreground: .warning, background: .danger), .indexed256, Look(foreground: 214, background: 160)),
        (Style(foreground: .success), .indexed256, Look(foreground: 34)),
        (Style(foreground: .accent), .basic8, Look(foreground: 6)),
        (Style(foreground: .muted), .basic8, Look(attributes: [.dim])),
        (Style(foreground: .warning), .basic8, Look(foreground: 3)),
        (Style(foreground: .danger), .basic8, Look(foreground: 1)),
        (Style(foreground: .success), .basic8, Look(foreground: 2)),
        (Style(foreground: .danger, underline: true), .monochrome, Look(attributes: [.underline])),
        (Style(foreground: .muted), .monochrome, Look(attributes: [.dim])),
        // Avatars (N2 palette)
        (Style(foreground: .avatar(0)), .indexed256, Look(foreground: 167)),
        (Style(foreground: .avatar(7)), .indexed256, Look(foreground: 169)),
        (Style(foreground: .avatar(9)), .indexed256, Look(foreground: 208)),   // wraps
        (Style(foreground: .avatar(-1)), .indexed256, Look(foreground: 169)),  // wraps, never traps
        (Style(foreground: .avatar(0)), .basic8, Look(foreground: 1)),
        (Style(foreground: .avatar(5)), .basic8, Look(foreground: 6)),
        (Style(foreground: .avatar(6)), .basic8, Look(attributes: [.bold], foreground: 1)),
        (Style(background: .avatar(7)), .basic8, Look(background: 2)),
        (Style(foreground: .avatar(3)), .monochrome, Look(attributes: [.bold, .reverse])),
        (Style(background: .avatar(3)), .monochrome, Look(attributes: [.reverse])),
    ])
    func styleMapsToAttributesAndColors(style: Style, depth: ColorDepth, expected: Look) {
        #expect(Look(style, depth: depth) == expected)
    }

    @Test func avatarPalettesHoldEightDistinctColors() {
        let in256 = (0..<8).map { Look(Style(foreground: .avatar($0)), depth: .indexed256) }
        let in8 = (0..<8).map { Look(Style(foreground: .avatar($0)), depth: .basic8) }
        #expect(Set(in256).count == 8)
        #expect(Set(in8).count == 8)
        // Never black or white in 8 colours: one of them is the background.
        #expect(in8.allSatisfy { (1...6).contains($0.foreground) })
    }
}

struct ColorPairTests {
    @Test func pairsAreAllocatedOnceAndReused() {
        var pairs = ColorPairs(capacity: 10, defaultColorsAvailable: true)
        let first = pairs.pair(foreground: 39, background: -1)
        let second = pairs.pair(foreground: 1, background: 2)
        let again = pairs.pair(foreground: 39, background: -1)
        #expect(first.number == 1 && first.isNew)
        #expect(second.number == 2 && second.isNew)
        #expect(again.number == 1 && !again.isNew)
    }

    @Test func defaultColorsArePairZero() {
        var pairs = ColorPairs(capacity: 10, defaultColorsAvailable: true)
        let plain = pairs.pair(foreground: -1, background: -1)
        #expect(plain.number == 0 && !plain.isNew)
        #expect(pairs.numbers.isEmpty)
    }

    @Test func exhaustedPairsFallBackToTheSameForegroundThenToDefault() {
        var pairs = ColorPairs(capacity: 2, defaultColorsAvailable: true)
        _ = pairs.pair(foreground: 1, background: -1)
        _ = pairs.pair(foreground: 2, background: 3)
        let sameInk = pairs.pair(foreground: 1, background: 4)
        let nothing = pairs.pair(foreground: 5, background: 6)
        #expect(sameInk.number == 1 && !sameInk.isNew)
        #expect(nothing.number == 0 && !nothing.isNew)
        #expect(pairs.numbers.count == 2)
    }

    @Test func withoutDefaultColorsDefaultMeansWhiteOnBlack() {
        var pairs = ColorPairs(capacity: 10, defaultColorsAvailable: false)
        let plain = pairs.pair(foreground: 7, background: -1)
        let accent = pairs.pair(foreground: 6, background: -1)
        #expect(plain.number == 0)
        #expect(accent.number == 1 && accent.colors == ColorPairs.Colors(foreground: 6, background: 0))
    }

    @Test func noPairsAtAllInMonochrome() {
        var pairs = ColorPairs(capacity: 0, defaultColorsAvailable: true)
        #expect(pairs.pair(foreground: 1, background: -1).number == 0)
    }

    @Test func capacityNeverExceedsWhatInitPairTakes() {
        #expect(ColorPairs(capacity: 65535, defaultColorsAvailable: true).capacity == 32767)
    }
}
