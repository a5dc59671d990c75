/// The colours a `Color` stands for, for back ends with 256 colours and with 8.
///
/// Avatar colours (N2) are mid-tone hues picked to tell senders apart on dark and light
/// backgrounds alike and to read under black or white initials; roles map to the usual
/// meanings (accent blue, muted grey, warning amber, danger red, success green).
public enum Palette {
    /// How many avatar colours there are: `Color.avatar(i)` takes `i` in `0..<count`.
    public static let count = 8

    /// Names of the avatar colours, in index order (for the inspector and tests).
    public static let avatarNames = ["red", "orange", "gold", "green", "teal", "blue", "purple", "pink"]

    /// xterm-256 indices of the avatar colours: #d75f5f #ff8700 #d7af00 #5faf5f #00afaf #5f87ff #af5fff #ff87d7.
    public static let avatar256: [Int] = [167, 208, 178, 71, 37, 69, 135, 212]

    /// The nearest of the 8 basic ANSI colours (1 red … 6 cyan), for terminals without 256.
    public static let avatarBasic: [Int] = [1, 3, 3, 2, 6, 4, 5, 5]

    /// The xterm-256 index for a colour; nil for the terminal's default.
    public static func xterm256(_ color: Color) -> Int? {
        switch color {
        case .default: nil
        case .avatar(let index): avatar256[wrapped(index)]
        case .accent: 39    // #00afff
        case .muted: 245    // #8a8a8a
        case .warning: 214  // #ffaf00
        case .danger: 196   // #ff0000
        case .success: 70   // #5faf00
        }
    }

    /// The basic ANSI colour (0–7) for a colour; nil for the terminal's default.
    public static func basic(_ color: Color) -> Int? {
        switch color {
        case .default: nil
        case .avatar(let index): avatarBasic[wrapped(index)]
        case .accent: 4
        case .muted: 7
        case .warning: 3
        case .danger: 1
        case .success: 2
        }
    }

    /// Any index names a colour: out-of-range ones wrap around instead of trapping.
    static func wrapped(_ index: Int) -> Int {
        let remainder = index % count
        return remainder < 0 ? remainder + count : remainder
    }
}
