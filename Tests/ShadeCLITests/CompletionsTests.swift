import Foundation
import Testing
@testable import shade

/// The completion scripts are the command table in each shell's words: every command, option and
/// fixed option value, so a command added to the table completes without touching this code.
@Suite struct CompletionsTests {
    static let shells = ["bash", "zsh", "fish"]

    static func script(_ shell: String) -> String {
        switch shell {
        case "bash": CompletionScript.bash(Shade.commands)
        case "zsh": CompletionScript.zsh(Shade.commands)
        default: CompletionScript.fish(Shade.commands)
        }
    }

    /// How a shell's script names an option (fish drops the dashes).
    static func spelling(_ option: String, shell: String) -> String {
        shell == "fish" ? "-l \(option.dropFirst(2))" : option
    }

    @Test(arguments: shells)
    func everyCommandAndOptionCompletes(shell: String) {
        let script = Self.script(shell)
        for command in Shade.commands {
            #expect(script.contains(command.name), "\(shell): \(command.name)")
            for option in command.valueOptions + command.flags {
                #expect(script.contains(Self.spelling(option, shell: shell)), "\(shell): \(command.name) \(option)")
            }
        }
    }

    @Test(arguments: shells)
    func fixedOptionValuesComplete(shell: String) {
        let script = Self.script(shell)
        #expect(script.contains("android ios web all"), "\(shell): --platform values")
        #expect(script.contains("native flutter react-native"), "\(shell): --flavor values")
        #expect(script.contains("text json"), "\(shell): lint --format values")
        #expect(script.contains("bash zsh fish"), "\(shell): completions' shells")
    }

    @Test func theBashScriptParsesAndCompletes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("shade-completion-\(UUID().uuidString).bash")
        try Self.script("bash").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        func complete(_ words: [String]) throws -> String {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let program = "source \(file.path); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _shade; echo \"${COMPREPLY[*]}\""
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["--norc", "-c", program]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try complete(["shade", "sn"]) == "snapshot")
        #expect(try complete(["shade", "state", "--platform", ""]) == "android ios web all")
        #expect(try complete(["shade", "lint", "--for"]) == "--format")
        #expect(try complete(["shade", "explain", "A1"]) == "A1 A10 A11 A12 A13")
    }
}
