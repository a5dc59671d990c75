// The curses session: start, present a Screen, read keys, stop.
import CNcursesw
import Glibc
import ShadeUI
import Synchronization

public struct TerminalError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// The terminal, owned by the run loop's thread. Not Sendable: curses is not thread-safe, and the
/// single-threaded run loop (DESIGN "Run loop") is the only caller.
public final class Terminal {
    public private(set) var colorDepth: ColorDepth = .monochrome
    var started = false
    /// A session on /dev/null for tests (see TerminalOffscreen.swift): the real tty is never touched.
    var offscreen = false
    var screenHandle: OpaquePointer?
    private var pairs = ColorPairs(capacity: 0, defaultColorsAvailable: true)
    private var drawnStyles: [Style: (attributes: attr_t, pair: Int16)] = [:]
    /// The last screen presented and the terminal size it was drawn at: only what differs is redrawn.
    private var presented: Screen?
    private var presentedSize = (columns: 0, rows: 0)

    public init() {}

    deinit { stop() }

    /// Takes over the terminal: alternate screen, raw keys (Ctrl-C is a key), no echo, hidden cursor,
    /// non-blocking reads for the app's poll() loop on standard input, mouse wheel and clicks when
    /// `mouse`. Installs the restore paths (TerminalRestore.swift) first. Throws, with the terminal
    /// as it was, when standard input or output is not a terminal or $TERM is unknown or cannot
    /// address the cursor (the app then runs headless).
    public func start(colorMode: ColorMode = .auto, mouse: Bool = true) throws {
        guard !started else { return }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError(description: "standard input and output must be a terminal")
        }
        TerminalRestore.saveTermios()
        // Before newterm, so ncurses sees SIGINT/SIGTERM handled and leaves them to us.
        SignalWatch.install()
        CrashRestore.install()
        TerminalRestore.installAtexit()

        Terminal.setUTF8Locale()
        StderrHold.hold()
        guard let screen = shade_newterm() else {
            StderrHold.release()   // newterm's own complaint, if any, shows
            throw TerminalError(description: "cannot use terminal type TERM=\(Terminal.terminalName): set TERM to one terminfo knows, such as xterm-256color")
        }
        screenHandle = screen
        TerminalRestore.cursesActive.store(true, ordering: .releasing)
        started = true
        guard Terminal.canAddressCursor() else {
            stop()
            throw TerminalError(description: "terminal type TERM=\(Terminal.terminalName) cannot move the cursor: use a full-screen terminal, or --headless")
        }

        let window = shade_stdscr()
        raw()
        noecho()
        nonl()
        keypad(window, true)
        meta(window, true)
        nodelay(window, true)
        intrflush(window, false)
        leaveok(window, true)
        typeahead(-1)   // finish every frame even while keys arrive: no half-drawn screens
        set_escdelay(25)   // the default waits a whole second after a lone Esc
        curs_set(0)
        if mouse {
            mouseinterval(0)   // report presses at once instead of waiting to assemble clicks
            mousemask(shade_BUTTON1_PRESSED | shade_BUTTON4_PRESSED | shade_BUTTON5_PRESSED, nil)
        }

        let noColor = getenv("NO_COLOR").map { String(cString: $0) }
        var colors = 0
        var defaultColors = true
        if ColorDepth.wantsColor(mode: colorMode, noColor: noColor), has_colors() {
            start_color()
            defaultColors = use_default_colors() == OK
            colors = Int(shade_colors())
        }
        colorDepth = ColorDepth.choose(mode: colorMode, noColor: noColor, colors: colors)
        pairs = ColorPairs(capacity: colorDepth == .monochrome ? 0 : Int(shade_color_pairs()) - 1,
                           defaultColorsAvailable: defaultColors)
        drawnStyles = [:]
        presented = nil
        ResizeWake.install()
    }

    /// Gives the terminal back (endwin). Idempotent; also runs at exit and on signals.
    public func stop() {
        guard started else { return }
        started = false
        if offscreen { endwin() } else { TerminalRestore.restore() }
        if let screenHandle { delscreen(screenHandle) }
        screenHandle = nil
        presented = nil
    }

    /// Columns and rows: curses' idea while started (updated on `.resize`), the tty's otherwise.
    public var size: (columns: Int, rows: Int) {
        if started { return (Int(shade_cols()), Int(shade_lines())) }
        var window = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return (Int(window.ws_col), Int(window.ws_row))
        }
        return (80, 24)
    }

    /// Poll this beside standard input: readable on SIGINT/SIGTERM/SIGHUP and on resize.
    public var wakeDescriptor: Int32 { SignalWatch.wakeDescriptor }

    /// The termination signal received since the last call, if any (drains `wakeDescriptor`).
    /// The app decides: typically `stop()` then `exit(SignalWatch.exitStatus(for: signal))`.
    public func takePendingSignal() -> Int32? { SignalWatch.takePending() }

    /// Forget what is on the terminal and repaint everything on the next `present` (Ctrl-L).
    public func repaintAll() {
        guard started else { return }
        presented = nil
        clearok(shade_curscr(), true)
    }

    /// All input that is waiting, without blocking (a lone Esc costs the 25 ms escape delay).
    public func readKeys() -> [Key] {
        guard started else { return [] }
        let window = shade_stdscr()
        var inputs: [RawInput] = []
        var code: wint_t = 0
        // Bounded so a huge paste cannot hold the loop; the rest stays readable for the next call.
        while inputs.count < 4096 {
            let status = wget_wch(window, &code)
            if status == OK {
                inputs.append(.character(UInt32(code)))
            } else if status == KEY_CODE_YES {
                if Int32(code) == KEY_MOUSE {
                    var event = MEVENT()
                    if getmouse(&event) == OK {
                        inputs.append(.mouse(buttons: event.bstate, column: Int(event.x), row: Int(event.y)))
                    }
                } else {
                    inputs.append(.keyCode(Int32(code)))
                }
            } else {
                break
            }
        }
        let keys = Key.decode(inputs)
        if keys.contains(.resize) {
            presented = nil   // ncurses has resized stdscr; draw the next screen in full
        }
        return keys
    }

    /// Draws `screen` and sends only what changed. Cells beyond the terminal are clipped; terminal
    /// cells beyond the screen are blank.
    public func present(_ screen: Screen) {
        guard started else { return }
        let window = shade_stdscr()
        let terminalSize = size
        let visibleRows = min(screen.rows, terminalSize.rows)
        let visibleColumns = min(screen.columns, terminalSize.columns)
        let previous = presented.flatMap { old in
            old.columns == screen.columns && old.rows == screen.rows
                && presentedSize == terminalSize ? old : nil
        }
        if previous == nil { werase(window) }

        for row in 0..<visibleRows {
            let span: Range<Int>
            if let previous {
                guard let changed = ScreenDiff.changedSpan(old: previous, new: screen, row: row) else { continue }
                span = changed.clamped(to: 0..<visibleColumns)
            } else {
                span = 0..<visibleColumns
            }
            for column in span {
                drawCell(screen, column: column, row: row, visibleColumns: visibleColumns, window: window)
            }
        }
        presented = screen
        presentedSize = terminalSize
        wnoutrefresh(window)
        doupdate()
    }

    private func drawCell(_ screen: Screen, column: Int, row: Int, visibleColumns: Int,
                          window: UnsafeMutablePointer<WINDOW>?) {
        let cell = screen[column, row]
        let look = drawing(cell.style)
        var glyph = Glyph(cell, previous: column > 0 ? screen[column - 1, row] : nil,
                          column: column, visibleColumns: visibleColumns)
        if glyph.isContinuation { return }
        // Curses must agree on the width or every later cell on the row is off: trust wcwidth
        // (what ncurses and most terminals count), and fill a column the glyph does not cover.
        let curses = glyph.cursesWidth
        if curses != glyph.width && !(glyph.width == 2 && curses == 1) { glyph = .replacement(width: glyph.width) }
        var character = cchar_t()
        glyph.withWideCharacters { characters in
            _ = setcchar(&character, characters, look.attributes, look.pair, nil)
        }
        _ = mvwadd_wch(window, Int32(row), Int32(column), &character)
        if glyph.width == 2 && glyph.cursesWidth == 1 {
            var blank = cchar_t()
            var space: (wchar_t, wchar_t) = (0x20, 0)
            withUnsafePointer(to: &space.0) { _ = setcchar(&blank, $0, look.attributes, look.pair, nil) }
            _ = mvwadd_wch(window, Int32(row), Int32(column + 1), &blank)
        }
    }

    private func drawing(_ style: Style) -> (attributes: attr_t, pair: Int16) {
        if let known = drawnStyles[style] { return known }
        let look = Look(style, depth: colorDepth)
        var attributes = shade_A_NORMAL
        if look.attributes.contains(.bold) { attributes |= shade_A_BOLD }
        if look.attributes.contains(.dim) { attributes |= shade_A_DIM }
        if look.attributes.contains(.reverse) { attributes |= shade_A_REVERSE }
        if look.attributes.contains(.underline) { attributes |= shade_A_UNDERLINE }
        var pair: Int16 = 0
        if colorDepth != .monochrome {
            let found = pairs.pair(foreground: look.foreground, background: look.background)
            if found.isNew { init_pair(found.number, found.colors.foreground, found.colors.background) }
            pair = found.number
        }
        drawnStyles[style] = (attributes, pair)
        return (attributes, pair)
    }

    private static var terminalName: String { getenv("TERM").map { String(cString: $0) } ?? "(unset)" }

    /// A terminal without cursor addressing (TERM=dumb) cannot show a full-screen UI.
    private static func canAddressCursor() -> Bool {
        guard let address = tigetstr("cup") else { return false }
        return Int(bitPattern: address) != -1   // -1: not a string capability
    }

    /// setlocale(LC_ALL, "") so curses writes UTF-8; when the environment names no UTF-8 locale
    /// (LANG unset, "C"), fall back to C.UTF-8 for characters: the payloads are UTF-8 and so are
    /// terminals, and in the C locale curses would show every non-ASCII character as an escape.
    static func setUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET))).uppercased()
        if codeset != "UTF-8" && codeset != "UTF8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }
}

/// SIGWINCH: ncurses installs its own handler (to queue KEY_RESIZE); this one runs it and then
/// wakes the run loop's poll(), which a signal delivered to another thread would not interrupt.
enum ResizeWake {
    // nonisolated(unsafe): written once, before the handler that reads it is installed.
    nonisolated(unsafe) static var cursesHandler: (@convention(c) (Int32) -> Void)?
    private static let installed = Atomic<Bool>(false)

    static func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var previous = sigaction()
        sigaction(SIGWINCH, nil, &previous)
        if previous.sa_flags & SA_SIGINFO == 0 {
            cursesHandler = previous.__sigaction_handler.sa_handler
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = onResizeSignal
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGWINCH, &action, nil)
    }
}

private func onResizeSignal(_ signo: Int32) {
    let savedErrno = errno
    if let handler = ResizeWake.cursesHandler,
       unsafeBitCast(handler, to: Int.self) > 1 {   // not SIG_DFL (0) or SIG_IGN (1)
        handler(signo)
    }
    SignalWatch.wake()
    errno = savedErrno
}
