// How a `Style` becomes curses attributes and colour numbers. Pure: no curses calls here,
// so the mapping is tested without a terminal.
import ShadeUI

/// What the user asked for. `--no-color` is `.none`; so is `.auto` when `NO_COLOR` is set.
public enum ColorMode: Sendable {
    case auto, none
}

/// What the terminal is actually given, decided once at start.
public enum ColorDepth: Equatable, Sendable {
    case monochrome, basic8, indexed256

    /// `noColor` is the value of the `NO_COLOR` environment variable (no-color.org: any
    /// non-empty value turns colour off); `colors` is curses' COLORS, 0 when it has none.
    public static func choose(mode: ColorMode, noColor: String?, colors: Int) -> ColorDepth {
        guard mode == .auto, (noColor ?? "").isEmpty else { return .monochrome }
        if colors >= 256 { return .indexed256 }
        if colors >= 8 { return .basic8 }
        return .monochrome
    }

    /// Whether `start_color` should be called at all: never when colour is off, so the
    /// terminal's own palette is left alone.
    static func wantsColor(mode: ColorMode, noColor: String?) -> Bool {
        mode == .auto && (noColor ?? "").isEmpty
    }
}

/// The text attributes that carry meaning in every depth.
struct TextAttributes: OptionSet, Hashable {
    let rawValue: UInt8
    static let bold = TextAttributes(rawValue: 1 << 0)
    static let dim = TextAttributes(rawValue: 1 << 1)
    static let reverse = TextAttributes(rawValue: 1 << 2)
    static let underline = TextAttributes(rawValue: 1 << 3)
}

/// A style as the terminal draws it: attributes and curses colour numbers (-1 = the terminal's default).
struct Look: Hashable {
    var attributes: TextAttributes
    var foreground: Int16
    var background: Int16

    static let terminalDefault: Int16 = -1

    init(attributes: TextAttributes = [], foreground: Int16 = Look.terminalDefault,
         background: Int16 = Look.terminalDefault) {
        self.attributes = attributes
        self.foreground = foreground
        self.background = background
    }

    init(_ style: Style, depth: ColorDepth) {
        var attributes: TextAttributes = []
        if style.bold { attributes.insert(.bold) }
        if style.dim { attributes.insert(.dim) }
        if style.reverse { attributes.insert(.reverse) }
        if style.underline { attributes.insert(.underline) }
        let foreground = Palette.ink(style.foreground, depth: depth, asBackground: false)
        let background = Palette.ink(style.background, depth: depth, asBackground: true)
        self.init(attributes: attributes.union(foreground.attributes).union(background.attributes),
                  foreground: foreground.color, background: background.color)
    }
}

/// Colour numbers for roles and avatars at each depth.
enum Palette {
    /// The avatar palette has 8 entries (N2 hashes identities into it); other indices wrap.
    static let avatarCount = 8

    // xterm-256 indices picked to stay apart from each other and readable on dark and light backgrounds.
    static let avatars256: [Int16] = [167, 208, 178, 71, 37, 33, 98, 169]
    // The 6 hues of the basic 8 that show on both dark and light backgrounds (not black, not white).
    static let hues8: [Int16] = [1, 2, 3, 4, 5, 6]   // red, green, yellow, blue, magenta, cyan

    /// A colour number plus the attributes that stand in for colour where the depth lacks it.
    static func ink(_ color: Color, depth: ColorDepth, asBackground: Bool) -> (color: Int16, attributes: TextAttributes) {
        switch (depth, color) {
        case (_, .default):
            return (Look.terminalDefault, [])

        case (.monochrome, .avatar):
            // Without colour an avatar still stands out: a reversed block, bold initials.
            return (Look.terminalDefault, asBackground ? [.reverse] : [.bold, .reverse])
        case (.monochrome, .muted):
            return (Look.terminalDefault, asBackground ? [] : [.dim])
        case (.monochrome, _):
            // Roles are hints; views carry their meaning with bold/dim/reverse too.
            return (Look.terminalDefault, [])

        case (.basic8, .avatar(let index)):
            // 8 avatars on 6 hues: the last two repeat the first two hues in bold.
            let slot = wrapped(index)
            return (hues8[slot % hues8.count], slot >= hues8.count && !asBackground ? [.bold] : [])
        case (.basic8, .accent): return (6, [])
        case (.basic8, .muted): return asBackground ? (Look.terminalDefault, []) : (Look.terminalDefault, [.dim])
        case (.basic8, .warning): return (3, [])
        case (.basic8, .danger): return (1, [])
        case (.basic8, .success): return (2, [])

        case (.indexed256, .avatar(let index)): return (avatars256[wrapped(index)], [])
        case (.indexed256, .accent): return (39, [])
        case (.indexed256, .muted): return (asBackground ? 237 : 245, [])
        case (.indexed256, .warning): return (214, [])
        case (.indexed256, .danger): return (160, [])
        case (.indexed256, .success): return (34, [])
        }
    }

    static func wrapped(_ index: Int) -> Int {
        ((index % avatarCount) + avatarCount) % avatarCount
    }
}

/// Curses colour pairs, allocated on first use. Pairs are a small, fixed resource (64 on many
/// 8-colour terminals): when they run out, a look falls back to a pair that keeps its foreground,
/// else to the terminal's default colours, and attributes still carry the meaning.
struct ColorPairs {
    struct Colors: Hashable {
        var foreground: Int16
        var background: Int16
    }

    /// Pairs numbered 1...capacity are ours; 0 is the terminal's default pair.
    let capacity: Int
    /// Without `use_default_colors`, -1 is not a colour: default stands for white on black.
    let defaultColorsAvailable: Bool
    private(set) var numbers: [Colors: Int16] = [:]

    init(capacity: Int, defaultColorsAvailable: Bool) {
        // init_pair takes a short.
        self.capacity = max(0, min(capacity, Int(Int16.max)))
        self.defaultColorsAvailable = defaultColorsAvailable
    }

    /// The pair for these colours and whether it is new (then the caller must init_pair it).
    mutating func pair(foreground: Int16, background: Int16) -> (number: Int16, isNew: Bool, colors: Colors) {
        let colors = resolved(Colors(foreground: foreground, background: background))
        if colors == resolved(Colors(foreground: Look.terminalDefault, background: Look.terminalDefault)) {
            return (0, false, colors)
        }
        if let number = numbers[colors] { return (number, false, colors) }
        if numbers.count < capacity {
            let number = Int16(numbers.count + 1)
            numbers[colors] = number
            return (number, true, colors)
        }
        let sameInk = resolved(Colors(foreground: colors.foreground, background: Look.terminalDefault))
        return (numbers[sameInk] ?? 0, false, colors)
    }

    private func resolved(_ colors: Colors) -> Colors {
        guard !defaultColorsAvailable else { return colors }
        return Colors(foreground: colors.foreground < 0 ? 7 : colors.foreground,
                      background: colors.background < 0 ? 0 : colors.background)
    }
}
