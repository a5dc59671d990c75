import ShadeCore

/// `shade explain [ID]…`: what a rule id printed by the inspector, lint, help or a log means, and
/// where the rule comes from (the rule catalogue of ShadeCore).
enum ExplainCommand {
    static let command = Command(
        name: "explain",
        summary: "say what a rule id (A5, C9, V4, …) means and where the rule comes from",
        usage: "shade explain [ID…] [--markdown]",
        help: """
        The inspector's "Why" trace, `shade lint`, `shade state --trace` and the logs name the rule behind
        each decision by its id. `shade explain ID` prints that rule in a sentence with its source (the
        push SDK's conversation-notifications guide, the IM SDK's push payload format, or Apple's,
        Google's and the web's documents by title). Without an ID it prints every rule, by group:

        \(RuleGroup.allCases.map { "  \($0.prefix)  \($0.title)" }.joined(separator: "\n"))

        A range works as lint writes it (D1-D8). An unknown id exits 2 and names the closest ones.
        The same rules are in docs/RULES.md.

        Options:
          --markdown              print the reference document (docs/RULES.md) instead

        Examples:
          shade explain A5
          shade explain C9 I2 V4
          shade explain | less
        """,
        valueOptions: [],
        flags: ["--markdown"],
        run: run,
        operands: .words(RuleCatalogue.rules.map(\.id)))

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        if parsed.has("--markdown") {
            guard parsed.operands.isEmpty else { throw UsageError("--markdown prints the whole reference; leave out the ids") }
            print(RuleCatalogue.markdown, terminator: "")
            return 0
        }
        guard !parsed.operands.isEmpty else {
            print(RuleCatalogue.text, terminator: "")
            return 0
        }
        var rules: [Rule] = []
        for token in parsed.operands {
            let ids = RuleCatalogue.ids(in: token)
            guard !ids.isEmpty else { throw UsageError(unknown(token)) }
            rules += ids.compactMap(RuleCatalogue.rule)
        }
        print(rules.map(\.explanation).joined(separator: "\n"))
        return 0
    }

    /// `no rule X9; the closest are I9, V9` — by edit distance, ties in catalogue order.
    static func unknown(_ token: String) -> String {
        let wanted = token.uppercased()
        let ranked = RuleCatalogue.rules.map { (id: $0.id, distance: editDistance($0.id, wanted)) }
        let best = ranked.map(\.distance).min() ?? 0
        let closest = ranked.filter { $0.distance == best }.prefix(5).map(\.id)
        return "no rule \(token); the closest: \(closest.joined(separator: ", ")); `shade explain` lists every rule"
    }
}
