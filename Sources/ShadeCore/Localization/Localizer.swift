/// What a `loc-key` with its `loc-args` becomes on one platform (L5, L6), with
/// the sentences the decision trace and `lint` (V6) print.
public struct Resolution: Sendable, Equatable {
    /// The field's text; nil where Android leaves the field empty.
    public let text: String?
    /// Human sentences naming their rule (L2–L6), in the order they apply.
    public let notes: [String]
    /// The key is in no loaded table (L5; V6).
    public let missingKey: Bool
    /// Too few or unused arguments for the format that was found (L6; V6).
    public let argumentMismatch: Bool
    /// Where the format came from; nil when the key is missing.
    public let lookup: Lookup?

    public init(text: String?, notes: [String], missingKey: Bool, argumentMismatch: Bool, lookup: Lookup?) {
        self.text = text
        self.notes = notes
        self.missingKey = missingKey
        self.argumentMismatch = argumentMismatch
        self.lookup = lookup
    }
}

/// iOS: a found format is filled with `(null)` for each missing argument (L6);
/// a missing key shows the key text itself, formatted with the arguments (L5).
public func resolveIOS(key: String, args: [String], tables: StringTables) -> Resolution {
    guard let found = tables.lookup(key, preferring: .appleStrings) else {
        let formatted = formatLocalized(key, args: args)
        return Resolution(text: formatted.text(missing: .iOS),
                          notes: [missingKeyNote(key, tables: tables, outcome: "iOS shows the key itself")] + formatted.warnings,
                          missingKey: true, argumentMismatch: false, lookup: nil)
    }
    return resolveFound(found, args: args, style: .iOS,
                        missingOutcome: { "iOS shows (null) in \($0 == 1 ? "its place" : "their places")" })
}

/// Android: a found format with too few arguments fails and leaves the field empty
/// (L6), as does a missing string resource (L5).
public func resolveAndroid(key: String, args: [String], tables: StringTables) -> Resolution {
    guard let found = tables.lookup(key, preferring: .androidXML) else {
        return Resolution(text: nil,
                          notes: [missingKeyNote(key, tables: tables, outcome: "Android leaves the field empty")],
                          missingKey: true, argumentMismatch: false, lookup: nil)
    }
    return resolveFound(found, args: args, style: .android,
                        missingOutcome: { _ in "Android's String.format fails (MissingFormatArgumentException) and the field stays empty" })
}

private func resolveFound(_ found: Lookup, args: [String], style: MissingArgumentStyle,
                          missingOutcome: (Int) -> String) -> Resolution {
    let formatted = formatLocalized(found.format, args: args, percentIsLiteral: found.percentIsLiteral)
    let rule = if case .builtIn = found.source { "L2" } else { "L4" }
    var notes = ["\(rule): \(codeQuoted(found.key)) is \(codeQuoted(found.format)) from \(found.source)"
                 + (found.percentIsLiteral ? " (formatted=\"false\": % is literal)" : "")]
    let given = switch args.count {
    case 0: "none were given"
    case 1: "only 1 was given"
    default: "only \(args.count) were given"
    }
    if !formatted.missingArguments.isEmpty {
        let count = formatted.missingArguments.count
        notes.append("L6: \(codeQuoted(found.key)) uses \(arguments(formatted.missingArguments)) but \(given); \(missingOutcome(count))")
    }
    if !formatted.unusedArguments.isEmpty {
        let count = formatted.unusedArguments.count
        notes.append("L6: \(codeQuoted(found.key)) does not use \(arguments(formatted.unusedArguments)) of the \(args.count) given; \(count == 1 ? "it is" : "they are") ignored")
    }
    notes += formatted.warnings
    return Resolution(text: formatted.text(missing: style), notes: notes, missingKey: false,
                      argumentMismatch: !formatted.missingArguments.isEmpty || !formatted.unusedArguments.isEmpty,
                      lookup: found)
}

private func missingKeyNote(_ key: String, tables: StringTables, outcome: String) -> String {
    "L5: no string \(codeQuoted(key)) in the loaded tables (\(tables.searchedDescription)); \(outcome); consider sending a literal body, as the IM SDK advises"
}

/// `argument 2`, `arguments 2 and 3`, `arguments 1, 2 and 3`.
private func arguments(_ indexes: [Int]) -> String {
    let numbers = indexes.map(String.init)
    guard numbers.count > 1 else { return "argument \(numbers.first ?? "")" }
    return "arguments " + numbers.dropLast().joined(separator: ", ") + " and " + numbers.last!
}
