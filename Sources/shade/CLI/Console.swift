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
        var safe = isSafeLine(text) ? text : SafeText.line(text)
        safe.withUTF8 { bytes in _ = fwrite(bytes.baseAddress, 1, bytes.count, stdout) }
        putchar(0x0A)
    }

    /// `text` made safe as one line, and a newline, appended to `out` (the headless log's buffer).
    static func appendLine(_ text: String, to out: inout [UInt8]) {
        let start = out.count
        UTF8Text.append(text, to: &out)
        endLine(in: &out, from: start)
    }

    /// Ends the line written to `out` from `start`: made safe as `line` makes it, then a newline.
    static func endLine(in out: inout [UInt8], from start: Int) {
        let safe = out.withUnsafeBufferPointer { isSafeLine(UnsafeBufferPointer(rebasing: $0[start...])) }
        if !safe {
            let text = SafeText.line(String(decoding: out[start...], as: UTF8.self))
            out.removeSubrange(start...)
            UTF8Text.append(text, to: &out)
        }
        out.append(0x0A)
    }

    /// Bytes already made safe, to standard output in one write: straight to the descriptor after
    /// whatever stdio holds, since stdio's 4 KiB buffer split a flood round's log (5 KiB for 16 pushes)
    /// into two system calls. A write that cannot go on (a non-blocking or closed output) leaves the
    /// rest to stdio, as before.
    static func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        fflush(stdout)
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    _ = fwrite(buffer.baseAddress! + offset, 1, buffer.count - offset, stdout)
                    return
                }
            }
        }
    }

    /// Whether `SafeText.line` would leave `text` as it is, read off its UTF-8 bytes in one pass:
    /// printable ASCII and any other character but C0 and C1 controls, DEL, U+2028/U+2029 and the
    /// bidi controls U+202A–U+202E and U+2066–U+2069. `SafeText.isClean` takes only ASCII, so every
    /// headless log line with an arrow or a non-Latin name went through the scalar-by-scalar copy;
    /// ConsoleTests checks this against `SafeText.line` for every scalar.
    static func isSafeLine(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isSafeLine($0) }
    }

    static func isSafeLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Eight bytes at a time while they are printable ASCII (most of a log line), then one by one.
        var index = UTF8Text.printableASCIIWords(bytes)
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 || byte == 0x7F { return false }
                index += 1
                continue
            }
            // C1 controls: U+0080–U+009F are C2 80–C2 9F.
            if byte == 0xC2, index + 1 < count, bytes[index + 1] < 0xA0 { return false }
            // U+2028–U+202E are E2 80 A8–AE; U+2066–U+2069 are E2 81 A6–A9.
            if byte == 0xE2, index + 2 < count {
                let second = bytes[index + 1], third = bytes[index + 2]
                if second == 0x80 && (0xA8...0xAE).contains(third) { return false }
                if second == 0x81 && (0xA6...0xA9).contains(third) { return false }
            }
            index += 1
        }
        return true
    }

    /// Text that carries its own line ends (a lint report), as it is but for control characters.
    static func text(_ text: String) {
        print(SafeText.lines(text), terminator: "")
    }
}
