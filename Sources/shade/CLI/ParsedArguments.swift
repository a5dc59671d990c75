import ShadeCore

/// Command-line words split into options and operands, checked against what a command accepts.
/// `--name value` and `--name=value` both work; `-` is an operand (standard input); `--` ends options.
struct ParsedArguments {
    var values: [(name: String, value: String)] = []
    var flags: Set<String> = []
    var operands: [String] = []

    /// `choices`: the fixed values an option takes, when it has some (`Command.values(of:)`): a word
    /// given as an option that is one of them (`--json`, `--ios`) is pointed at its option.
    init(_ words: ArraySlice<String>, command: String, valueOptions: [String], flags known: [String],
         choices: (String) -> [String]? = { _ in nil }) throws(UsageError) {
        var i = words.startIndex
        var onlyOperands = false
        while i < words.endIndex {
            let word = words[i]
            i += 1
            if onlyOperands || word == "-" || !word.hasPrefix("-") {
                operands.append(word)
                continue
            }
            if word == "--" { onlyOperands = true; continue }
            var name = word
            var inline: String?
            if let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq])
                inline = String(word[word.index(after: eq)...])
            }
            if known.contains(name) {
                guard inline == nil else { throw UsageError("\(name) takes no value; write just \(name)") }
                flags.insert(name)
            } else if valueOptions.contains(name) {
                if let inline {
                    values.append((name, inline))
                } else {
                    guard i < words.endIndex else { throw UsageError("\(name) needs a value; see `shade \(command) --help`") }
                    values.append((name, words[i]))
                    i += 1
                }
            } else {
                let word = String(name.drop { $0 == "-" })
                let asValue = valueOptions.first { choices($0)?.contains(word) == true }.map { "\($0) \(word)" }
                let hint = (asValue ?? closest(to: name, among: valueOptions + known, limit: 3)).map { " (did you mean \($0)?)" } ?? ""
                throw UsageError("unknown option \(name) for `shade \(command)`\(hint); see `shade \(command) --help`")
            }
        }
    }

    func value(_ name: String) -> String? { values.last { $0.name == name }?.value }
    /// Every value of a repeatable option, in order.
    func all(_ name: String) -> [String] { values.filter { $0.name == name }.map(\.value) }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Applies the profile options in the order given.
    func profileOptions() throws(UsageError) -> ProfileOptions {
        var options = ProfileOptions()
        for (name, value) in values { _ = try options.set(name, value) }
        return options
    }
}
