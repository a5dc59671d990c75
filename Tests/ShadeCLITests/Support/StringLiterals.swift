/// The text of every string literal in Swift source, comments skipped, interpolations blanked (and
/// the literals inside them listed too). Enough of Swift's lexer to find what the program can print.
enum StringLiterals {
    static func of(_ source: String) -> [String] {
        var scanner = Scanner(characters: Array(source))
        scanner.code(until: nil)
        return scanner.literals
    }

    private struct Scanner {
        let characters: [Character]
        var index = 0
        var literals: [String] = []

        init(characters: [Character]) { self.characters = characters }

        func peek(_ offset: Int = 0) -> Character? {
            index + offset < characters.count ? characters[index + offset] : nil
        }

        func starts(with text: String) -> Bool {
            for (offset, character) in text.enumerated() where peek(offset) != character { return false }
            return true
        }

        /// Code up to an unmatched `closer` (the end of an interpolation) or the end.
        mutating func code(until closer: Character?) {
            var depth = 0
            while let c = peek() {
                if starts(with: "//") {
                    while let c = peek(), c != "\n" { _ = c; index += 1 }
                } else if starts(with: "/*") {
                    skipBlockComment()
                } else if c == "#" && (peek(1) == "\"" || peek(1) == "#") {
                    rawString()
                } else if starts(with: "\"\"\"") {
                    index += 3
                    string(delimiter: "\"\"\"", hashes: 0)
                } else if c == "\"" {
                    index += 1
                    string(delimiter: "\"", hashes: 0)
                } else {
                    index += 1
                    if c == "(" { depth += 1 }
                    if c == ")" {
                        if depth == 0 && closer == ")" { return }
                        depth -= 1
                    }
                }
            }
        }

        mutating func skipBlockComment() {
            var depth = 0
            while peek() != nil {
                if starts(with: "/*") { depth += 1; index += 2 } else if starts(with: "*/") {
                    depth -= 1; index += 2
                    if depth == 0 { return }
                } else { index += 1 }
            }
        }

        mutating func rawString() {
            var hashes = 0
            while peek() == "#" { hashes += 1; index += 1 }
            if starts(with: "\"\"\"") { index += 3; string(delimiter: "\"\"\"", hashes: hashes) } else if peek() == "\"" {
                index += 1
                string(delimiter: "\"", hashes: hashes)
            }
        }

        /// A literal's body up to `delimiter` followed by `hashes` #s; `\(…)` is code (a space in the text).
        mutating func string(delimiter: String, hashes: Int) {
            let escape = "\\" + String(repeating: "#", count: hashes)
            var text = ""
            while let c = peek() {
                if starts(with: delimiter + String(repeating: "#", count: hashes)) {
                    index += delimiter.count + hashes
                    literals.append(text)
                    return
                }
                if starts(with: escape) {
                    index += escape.count
                    if peek() == "(" {
                        index += 1
                        code(until: ")")
                        text += " "
                    } else if peek() == "u" && peek(1) == "{" {
                        while let c = peek(), c != "}" { _ = c; index += 1 }
                        index += 1
                        text += " "
                    } else {
                        index += 1
                        text += " "
                    }
                    continue
                }
                text.append(c)
                index += 1
            }
            literals.append(text)
        }
    }
}
