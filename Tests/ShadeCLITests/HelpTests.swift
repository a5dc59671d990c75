import Foundation
import Testing
import ShadeCore
@testable import shade

/// What a newcomer reads — every `--help` and README — names only files that are in the repository,
/// and documents every option the command takes.
@Suite struct HelpTests {
    /// Every help text the command line prints: the overview and each command's.
    static var helps: [(name: String, text: String)] {
        [("shade --help", Shade.generalHelp())] + Shade.commands.map { ("shade \($0.name) --help", Shade.helpText($0)) }
    }

    /// Documents a user reads in the repository.
    static let documents = ["README.md", "docs/RULES.md"]

    /// Paths a text names in the repository: words with a `/` whose first part is a top-level entry
    /// of the repository (`Samples/demo.jsonl`, `scripts/install.sh`), and Markdown file names.
    /// Other paths are the user's own (`session.jsonl`, `app/src/main/res/values/strings.xml`).
    static func repositoryPaths(in text: String) -> [String] {
        let top = Repository.topLevel
        var paths: [String] = []
        let words = text.split { " \n\t`'\"()[]{},;|<>=".contains($0) }
        for word in words {
            var path = String(word)
            while let last = path.last, ".:…*".contains(last) { path.removeLast() }
            if path.hasSuffix("/") { path.removeLast() }
            guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("$"), !path.hasPrefix("~"), !path.contains("://") else { continue }
            let first = String(path.split(separator: "/").first ?? "")
            if (path.contains("/") && top.contains(first)) || path.hasSuffix(".md") { paths.append(path) }
        }
        return paths
    }

    /// References to documents that are not in the repository (the behaviour spec, the design
    /// notes and the two source documents live beside the project, not in it).
    static func outsideReferences(in text: String) -> [String] {
        ["SPEC", "DESIGN", "§", "seed 00", "seeds/"].filter { text.contains($0) }
    }

    @Test func theScanFindsRepositoryPaths() {
        #expect(Self.repositoryPaths(in: "try `shade replay Samples/demo.jsonl`, see DESIGN.md and ~/x/y") == ["Samples/demo.jsonl", "DESIGN.md"])
        #expect(Self.outsideReferences(in: "every check of SPEC §9") == ["SPEC", "§"])
    }

    @Test func everyHelpNamesOnlyFilesInTheRepository() {
        for help in Self.helps {
            for path in Self.repositoryPaths(in: help.text) {
                #expect(Repository.exists(path), "`\(help.name)` names \(path), which is not in the repository")
            }
            #expect(Self.outsideReferences(in: help.text).isEmpty, "`\(help.name)` points outside the repository")
        }
    }

    @Test(arguments: documents)
    func documentsNameOnlyFilesInTheRepository(document: String) throws {
        let text = try Repository.text(document)
        for path in Self.repositoryPaths(in: text) {
            #expect(Repository.exists(path), "\(document) names \(path), which is not in the repository")
        }
        #expect(Self.outsideReferences(in: text).isEmpty, "\(document) points outside the repository")
    }

    /// What the program itself prints — traces, lint, logs, the live UI — points at nothing outside the
    /// repository either: every string literal of Sources is checked (an RFC's § is a public document).
    @Test func nothingTheProgramPrintsPointsOutsideTheRepository() throws {
        for file in try Repository.swiftFiles(under: "Sources") {
            for literal in StringLiterals.of(file.text) {
                let text = literal.replacingOccurrences(of: #"RFC [0-9]+ §"#, with: "RFC", options: .regularExpression)
                #expect(Self.outsideReferences(in: text).isEmpty, "\(file.path) prints \"\(literal)\"")
            }
        }
    }

    @Test func everyCommandsHelpDocumentsEveryOptionItTakes() {
        for command in Shade.commands {
            let help = Shade.helpText(command)
            for option in command.valueOptions + command.flags {
                #expect(help.contains(option + " ") || help.contains(option + "\n") || help.contains(option + "]"),
                        "`shade \(command.name) --help` does not mention \(option)")
            }
        }
    }

    @Test func replayHelpNamesTheKeysTheReplayTakes() {
        let help = Shade.helpText(ReplayCommand.command)
        #expect(help.contains(". steps one push"))
        #expect(!help.contains("n steps"))
        #expect(help.contains("[ and ] seek"))
    }

    @Test func theOverviewListsEveryCommandAndTheExitCodes() {
        let help = Shade.generalHelp()
        for command in Shade.commands { #expect(help.contains("  \(command.name) "), "\(command.name) missing from shade --help") }
        #expect(help.contains(Shade.exitCodes))
    }

    @Test func readmeGivesTheExitCodesAndEveryCommand() throws {
        let readme = try Repository.text("README.md")
        for command in Shade.commands { #expect(readme.contains("shade \(command.name)"), "README does not show shade \(command.name)") }
        #expect(readme.contains("--strict"))
        #expect(readme.contains("pushes rejected:"))
    }
}
