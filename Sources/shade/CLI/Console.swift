@preconcurrency import Glibc
import ShadeCore

/// Where the command line writes text that can hold operator input (file names, options, header
/// values) or payload text: through `SafeText`, so an ESC, a BEL or a lone CR is shown as a symbol and
/// never acted on by the terminal reading standard output or standard error.
enum Console {
    /// One message on standard error, such as `shade: unknown option …`. One line: a newline in a
    /// file name cannot forge a second message.
    static func error(_ message: String) {
        fputs(SafeText.line(message) + "\n", stderr)
    }

    /// One line on standard output (a log line, a reply).
    static func line(_ text: String) {
        print(SafeText.line(text))
    }

    /// Text that carries its own line ends (a lint report), as it is but for control characters.
    static func text(_ text: String) {
        print(SafeText.lines(text), terminator: "")
    }
}
