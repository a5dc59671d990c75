import Foundation
import Testing
@testable import ShadeCore

/// The tables under `Samples/strings/` parse and translate every built-in key (L4).
struct SampleTablesTests {
    static func sample(_ name: String) throws -> StringTable {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Samples/strings/\(name)").path
        let bytes = try #require(FileManager.default.contents(atPath: path), "missing \(path)")
        return try StringTable.parse(Array(bytes), name: name)
    }

    @Test(arguments: ["Localizable.strings", "strings.xml", "strings.json"])
    func L4_sampleTableCoversEveryBuiltInKey(name: String) throws {
        let table = try Self.sample(name)
        #expect(Set(table.entries.keys) == Set(BuiltInStrings.keys))
        #expect(table.warnings == [])
        let tables = StringTables(user: [table])
        let args = ["Alice", "Bob"]
        for key in BuiltInStrings.keys {
            let entry = try #require(table.entries[key])
            // The translation takes the same arguments as the built-in string it stands for.
            let translated = formatLocalized(entry.value, args: args, percentIsLiteral: entry.percentIsLiteral)
            let builtIn = formatLocalized(try #require(BuiltInStrings.format(for: key, in: .en)), args: args)
            #expect(translated.unusedArguments == builtIn.unusedArguments, "\(name) \(key)")
            #expect(translated.warnings == [], "\(name) \(key)")
            for resolution in [resolveIOS(key: key, args: args, tables: tables), resolveAndroid(key: key, args: args, tables: tables)] {
                #expect(resolution.lookup?.source == .table(name: name, line: entry.line))
                #expect(resolution.text == translated.text(missing: .android))
            }
        }
    }

    @Test func L4_sampleTranslations() throws {
        let tables = StringTables(user: [try Self.sample("Localizable.strings"), try Self.sample("strings.xml")])
        #expect(resolveIOS(key: "im_loc_deleteMember", args: ["Alice", "Bob"], tables: tables).text
            == "Alice hat Bob aus dem Chat entfernt")
        #expect(resolveIOS(key: "im_loc_encrypted", args: [], tables: tables).text
            == "Du hast eine verschlüsselte Nachricht erhalten")
        #expect(resolveAndroid(key: "im_loc_text", args: ["علی", "سلام"], tables: tables).text == "علی: سلام")
        #expect(resolveAndroid(key: "im_loc_addMember", args: ["علی", "مریم"], tables: tables).text == "علی، مریم را دعوت کرد")
        #expect(resolveAndroid(key: "im_loc_encrypted", args: [], tables: tables).text == "یک پیام رمزگذاری\u{200C}شده دریافت کردید")
        let json = StringTables(user: [try Self.sample("strings.json")])
        #expect(resolveAndroid(key: "im_loc_addMember", args: ["Alice", "Bob"], tables: json).text == "Alice hat Bob eingeladen")
    }
}
