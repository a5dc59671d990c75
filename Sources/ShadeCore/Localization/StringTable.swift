/// One string of a user table: the format text and where it came from, so the
/// decision trace and lint can point at `file:line`.
public struct StringEntry: Sendable, Equatable {
    public let value: String
    /// 1-based line of the key in its file.
    public let line: Int
    /// Android `formatted="false"`: `%` is literal when this string is formatted.
    public let percentIsLiteral: Bool

    public init(value: String, line: Int, percentIsLiteral: Bool = false) {
        self.value = value
        self.line = line
        self.percentIsLiteral = percentIsLiteral
    }
}

/// The file formats a user table may come in (L4).
public enum StringTableFormat: String, Sendable, Equatable, CaseIterable {
    /// iOS `Localizable.strings`.
    case appleStrings = "strings"
    /// Android `res/values*/strings.xml`.
    case androidXML = "xml"
    /// A flat JSON object of strings.
    case json
}

/// A user string table (`--strings FILE`), parsed from bytes. Pure: the caller reads the file.
public struct StringTable: Sendable, Equatable {
    /// The file name as given; errors, warnings and lookups name it.
    public let name: String
    public let format: StringTableFormat
    public let entries: [String: StringEntry]
    /// Things that parse but deserve a look (a key defined twice, a string aapt2
    /// would refuse to format), each as "file:line: sentence".
    public let warnings: [String]

    public init(name: String, format: StringTableFormat, entries: [String: StringEntry], warnings: [String] = []) {
        self.name = name
        self.format = format
        self.entries = entries
        self.warnings = warnings
    }

    /// Parses a table in any of the L4 formats, chosen by the extension of
    /// `name` (`.strings`, `.xml`, `.json`), else by sniffing the content.
    public static func parse(_ bytes: [UInt8], name: String) throws(StringTableError) -> StringTable {
        let scalars = try SourceDecoding.scalars(of: bytes, file: name)
        let format = detectFormat(name: name, scalars: scalars)
        switch format {
        case .appleStrings: return try AppleStringsParser.parse(scalars, name: name)
        case .androidXML: return try AndroidStringsParser.parse(scalars, name: name)
        case .json: return try JSONStringsParser.parse(scalars, name: name)
        }
    }

    /// The extension decides; without a known one, the first visible character does:
    /// `<` is XML, `{` is JSON, anything else (a quote, a comment, a bare key) is `.strings`.
    static func detectFormat(name: String, scalars: [Unicode.Scalar]) -> StringTableFormat {
        let fileName = name.split(separator: "/").last.map(String.init) ?? name
        if let dot = fileName.lastIndex(of: "."),
           let format = StringTableFormat(rawValue: fileName[fileName.index(after: dot)...].lowercased()) {
            return format
        }
        switch scalars.first(where: { !$0.properties.isWhitespace }) {
        case "<": return .androidXML
        case "{": return .json
        default: return .appleStrings
        }
    }
}

/// A table that cannot be read, with `file:line` and what was expected.
public struct StringTableError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    /// 1-based line, when the problem has one.
    public let line: Int?
    public let problem: String

    public init(file: String, line: Int?, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public var message: String {
        if let line { return "\(file):\(line): \(problem)" }
        return "\(file): \(problem)"
    }

    public var description: String { message }
}

/// Gathers entries; a key defined twice keeps the later value and leaves a warning,
/// as the later line is the one the platforms end up with.
struct EntryCollector {
    let file: String
    private(set) var entries: [String: StringEntry] = [:]
    private(set) var warnings: [String] = []

    init(file: String) {
        self.file = file
    }

    mutating func add(_ key: String, _ entry: StringEntry) {
        if let earlier = entries[key] {
            warn(line: entry.line, "`\(key)` is defined again (first on line \(earlier.line)); the later one is used")
        }
        entries[key] = entry
    }

    /// Sets `key` without the duplicate warning (a resolved reference takes its target's text).
    mutating func replace(_ key: String, _ entry: StringEntry) {
        entries[key] = entry
    }

    mutating func warn(line: Int, _ sentence: String) {
        warnings.append("\(file):\(line): \(sentence)")
    }

    func table(_ format: StringTableFormat) -> StringTable {
        StringTable(name: file, format: format, entries: entries, warnings: warnings)
    }
}
