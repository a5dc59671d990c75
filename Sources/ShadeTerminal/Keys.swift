// Keys as the UI sees them, decoded from what wget_wch and getmouse return.
import CNcursesw

/// One key press, resize or mouse event.
public enum Key: Equatable, Sendable {
    /// A printable character; a combining mark typed after a letter arrives merged with it.
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, tab, backTab, delete, insert
    /// F1…F63.
    case function(Int)
    /// The terminal changed size; `Terminal.size` already holds the new size.
    case resize
    case mouseWheelUp, mouseWheelDown
    /// A left-button press, zero-based cell coordinates.
    case mouseClick(column: Int, row: Int)
    /// Ctrl-C: the terminal is in raw mode, so it is a key and not SIGINT.
    case controlC
    /// Another Ctrl-letter, lower-cased: Ctrl-L is `.control("l")`. (Ctrl-H, -I, -J, -M and
    /// Ctrl-[ are backspace, tab, enter and escape.)
    case control(Character)
}

/// What one wget_wch (and getmouse) call returned, before interpretation.
enum RawInput: Equatable {
    /// wget_wch returned OK: a character code.
    case character(UInt32)
    /// wget_wch returned KEY_CODE_YES: a curses key code (KEY_UP, KEY_F(1), KEY_RESIZE…).
    case keyCode(Int32)
    /// KEY_MOUSE followed by a successful getmouse.
    case mouse(buttons: mmask_t, column: Int, row: Int)
}

extension Key {
    /// Interprets a drained batch of input. Pure, so it is tested without a terminal.
    static func decode(_ inputs: [RawInput]) -> [Key] {
        var keys: [Key] = []
        for input in inputs {
            switch input {
            case .character(let code):
                guard let scalar = Unicode.Scalar(code) else { continue }
                if let key = controlKey(code) {
                    keys.append(key)
                } else if isPrintable(scalar) {
                    // A combining mark joins the character before it, as it would on screen.
                    if case .character(let previous)? = keys.last {
                        var joined = String(previous)
                        joined.unicodeScalars.append(scalar)
                        if joined.count == 1 {
                            keys[keys.count - 1] = .character(Character(joined))
                            continue
                        }
                    }
                    keys.append(.character(Character(scalar)))
                }
            case .keyCode(let code):
                if let key = functionKey(code) { keys.append(key) }
            case .mouse(let buttons, let column, let row):
                if let key = mouseKey(buttons: buttons, column: column, row: row) { keys.append(key) }
            }
        }
        return keys
    }

    private static func controlKey(_ code: UInt32) -> Key? {
        switch code {
        case 3: return .controlC
        case 8, 127: return .backspace
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 1...26: return .control(Character(Unicode.Scalar(code + 96)!))
        case 0, 28...31: return .control(Character(Unicode.Scalar(code + 64)!))   // Ctrl-@, Ctrl-\ …
        default: return nil
        }
    }

    /// C1 controls and other non-characters never become `.character`: keys are data for the UI
    /// and may end up on screen.
    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: return false
        default: return scalar.properties.generalCategory != .unassigned
            && scalar.properties.generalCategory != .surrogate
        }
    }

    private static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_IC: return .insert
        case KEY_BTAB: return .backTab
        case KEY_RESIZE: return .resize
        case shade_key_f(1)...shade_key_f(63): return .function(Int(code - shade_key_f(0)))
        default: return nil   // keys the UI has no use for (KEY_SUSPEND, keypad corners…)
        }
    }

    private static func mouseKey(buttons: mmask_t, column: Int, row: Int) -> Key? {
        if buttons & shade_BUTTON4_PRESSED != 0 { return .mouseWheelUp }
        if buttons & shade_BUTTON5_PRESSED != 0 { return .mouseWheelDown }
        if buttons & (shade_BUTTON1_PRESSED | shade_BUTTON1_CLICKED) != 0 {
            return .mouseClick(column: column, row: row)
        }
        return nil   // releases, other buttons
    }
}
