/// Where a localized format was found, and the format itself (for the decision trace).
public struct Lookup: Sendable, Equatable {
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        case builtIn(BuiltInLanguage)
        case table(name: String, line: Int)

        /// `built-in zh-Hans` or `Localizable.strings:12`.
        public var description: String {
            switch self {
            case .builtIn(let language): return "built-in \(language.rawValue)"
            case .table(let name, let line): return "\(name):\(line)"
            }
        }
    }

    public let key: String
    public let format: String
    public let source: Source
    /// Android `formatted="false"`: format with `%` as plain text.
    public let percentIsLiteral: Bool

    public init(key: String, format: String, source: Source, percentIsLiteral: Bool = false) {
        self.key = key
        self.format = format
        self.source = source
        self.percentIsLiteral = percentIsLiteral
    }
}

/// The string tables of a profile (L4): the user's `--strings` files over the
/// built-in table (L2) of the `--locale` language.
public struct StringTables: Sendable, Equatable {
    public let locale: LocaleTag
    /// In command-line order; a later table overrides an earlier one.
    public let user: [StringTable]

    public init(locale: LocaleTag = .default, user: [StringTable] = []) {
        self.locale = locale
        self.user = user
    }

    /// The format for `key`: the last user table that has it, else the built-in table.
    public func lookup(_ key: String) -> Lookup? {
        lookup(key, preferring: nil)
    }

    /// As `lookup(_:)`, but tables of `format` are searched before the other user
    /// tables: given both a `Localizable.strings` and a `strings.xml`, iOS reads the
    /// first and Android the second, as each app would; a lone table serves both.
    public func lookup(_ key: String, preferring format: StringTableFormat?) -> Lookup? {
        let newestFirst = user.reversed()
        let ordered = newestFirst.filter { $0.format == format } + newestFirst.filter { $0.format != format }
        for table in ordered {
            if let entry = table.entries[key] {
                return Lookup(key: key, format: entry.value, source: .table(name: table.name, line: entry.line),
                              percentIsLiteral: entry.percentIsLiteral)
            }
        }
        return BuiltInStrings.format(for: key, in: locale.builtIn).map {
            Lookup(key: key, format: $0, source: .builtIn(locale.builtIn))
        }
    }

    /// The tables a lookup reads, newest first, for messages:
    /// `strings.xml, built-in en` or `built-in en, standing in for fa`.
    public var searchedDescription: String {
        var builtIn = "built-in \(locale.builtIn.rawValue)"
        if locale.builtInIsFallback {
            builtIn += ", standing in for \(locale.identifier)"
        }
        return (user.reversed().map(\.name) + [builtIn]).joined(separator: ", ")
    }
}
