import Foundation
import Testing
import ShadeCore
@testable import shade

/// Every rule id the code can print is explained: found from the code, not from a list kept by hand.
@Suite struct RuleCatalogueTests {
    /// (file, id) for each rule id written in a string literal of Sources: what traces, lint,
    /// routes, help and logs can print. The catalogue itself is left out: it names every id.
    static func idsPrintedByTheCode() throws -> [(file: String, id: String)] {
        var found: [(String, String)] = []
        for file in try Repository.swiftFiles(under: "Sources") where !file.path.hasPrefix("Sources/ShadeCore/Rules/") {
            for literal in StringLiterals.of(file.text) {
                for id in RuleMentions.of(literal) { found.append((file.path, id)) }
            }
        }
        return found
    }

    @Test func theScanFindsTheIdsTracesAndLintWrite() throws {
        // The scan itself can fail: it must see TraceStep("A5", …) and lint's rule ids.
        let ids = Set(try Self.idsPrintedByTheCode().map(\.id))
        for expected in ["A5", "C9", "I2", "V8", "D1-D8", "W3"] { #expect(ids.contains(expected), "\(expected) not found in Sources") }
    }

    @Test func everyIdTheCodePrintsIsInTheCatalogue() throws {
        for (file, id) in try Self.idsPrintedByTheCode() {
            #expect(!RuleCatalogue.ids(in: id).isEmpty, "\(file) prints \(id), which `shade explain` does not know")
        }
    }

    @Test func everyIdInHelpIsInTheCatalogue() {
        let helps = [Shade.generalHelp()] + Shade.commands.map(Shade.helpText)
        for help in helps {
            for id in RuleMentions.of(help) { #expect(!RuleCatalogue.ids(in: id).isEmpty, "help names \(id)") }
        }
    }

    @Test func idsAreUniqueAndNumberedWithoutGapsInEachGroup() {
        #expect(Set(RuleCatalogue.rules.map(\.id)).count == RuleCatalogue.rules.count)
        for group in RuleGroup.allCases {
            let numbers = RuleCatalogue.rules(in: group).map { Int($0.id.dropFirst())! }.sorted()
            #expect(numbers == Array(1...numbers.count), "\(group.title): \(numbers)")
            #expect(RuleCatalogue.rules(in: group).allSatisfy { $0.id.first == group.prefix })
        }
    }

    @Test func everyRuleIsOneSentenceWithASource() {
        for rule in RuleCatalogue.rules {
            #expect(rule.sentence.hasSuffix(".") && !rule.sentence.dropLast().contains(". "), "\(rule.id): \(rule.sentence)")
            #expect(!rule.sources.isEmpty, "\(rule.id) has no source")
            // Sources are named by what they are, never as files a user cannot open.
            for source in rule.sources {
                #expect(!source.title.lowercased().contains("seed") && !source.title.contains(".md"), "\(rule.id): \(source.title)")
            }
        }
    }

    @Test(arguments: [("A5", ["A5"]), ("a5", ["A5"]), ("D1-D3", ["D1", "D2", "D3"]), ("V1–V3", ["V1", "V2", "V3"]),
                      ("A13", ["A13"]), ("X1", []), ("A3-V4", []), ("C4-C2", [])])
    func idsOfAToken(token: String, expected: [String]) {
        #expect(RuleCatalogue.ids(in: token) == expected)
    }

    @Test func unknownIdNamesTheClosest() {
        #expect(ExplainCommand.unknown("A99").contains("the closest: A9"))
        #expect(ExplainCommand.unknown("V11").contains("V1"))
    }

    @Test func everythingIsGroupedInSpecOrder() {
        let text = RuleCatalogue.text
        let positions = RuleGroup.allCases.map { text.range(of: $0.title + "\n")!.lowerBound }
        #expect(positions == positions.sorted())
        for rule in RuleCatalogue.rules { #expect(text.contains(rule.id + "  " + rule.sentence)) }
    }

    @Test func theReferenceDocumentIsTheCatalogue() throws {
        let document = try Repository.text("docs/RULES.md")
        #expect(document == RuleCatalogue.markdown, "docs/RULES.md is out of date: run scripts/make-rules.sh")
    }
}
