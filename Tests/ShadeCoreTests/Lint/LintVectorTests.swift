import Testing
@testable import ShadeCore

/// The real-world files of Fixtures/vectors give what their README implies.
@Suite struct LintVectorTests {
    static let folder = "Tests/ShadeCoreTests/Fixtures/vectors/"

    @Test(arguments: [
        ("03-zulip-dm.json", 9, "invalid JSON at line 9, column 19: trailing comma before '}' — the service refuses the payload and nothing is shown; fix the JSON"),
        ("16-template-placeholders-trailing-commas.apns", 10, "invalid JSON at line 10, column 20: trailing comma before '}' — the service refuses the payload and nothing is shown; fix the JSON"),
        ("18-subtitle-emoji-trailing-comma.apns", 10, "invalid JSON at line 10, column 38: trailing comma before '}' — the service refuses the payload and nothing is shown; fix the JSON"),
    ])
    func V8_trailingCommasWithLineAndColumn(_ file: String, _ line: Int, _ message: String) {
        let pushes = LintFiles.lint(Self.folder + file)
        #expect(pushes.count == 1)
        #expect(pushes.first?.shape == nil)
        #expect(pushes.first?.diagnostics == [Diagnostic(.error, "V8", path: "$", message, line: line)])
    }

    @Test func V5_soundInsideAlertOfCarecall() {
        let pushes = LintFiles.lint(Self.folder + "11-carecall-emoji-sound-in-alert.apns")
        #expect(pushes.map(\.shape) == [.apns])
        #expect(pushes.first?.diagnostics == [
            Diagnostic(.warning, "V5", path: "$.aps.alert.sound",
                       "sound inside alert is ignored by Apple: the notification arrives without that sound — move it to aps.sound",
                       platform: .ios, line: 6),
        ])
    }

    @Test func V8_duplicateCommentKeysAndUnknownShapeOfWebPushBook() {
        let pushes = LintFiles.lint(Self.folder + "27-web-push-book-options-template.json")
        #expect(LintFiles.summary(pushes) == ["1: error [D1-D8] $", #"11: warning [V8] $["//"]"#])
        let duplicate = pushes.first?.diagnostics.first { $0.rule == "V8" }
        #expect(duplicate?.message == #"the key "//" appears 4 times in one object; Shade and JavaScript keep the last value ("Information Option. No visual affect."), other parsers the first — keep one"#)
        let shape = pushes.first?.diagnostics.first { $0.rule == "D1-D8" }
        #expect(shape?.message.hasPrefix(#"unknown payload shape (top-level keys "//", "body", "icon", "image", "badge", "vibrate", "sound", "dir", …): tried D1 envelope"#) == true)
    }

    @Test func D_unknownShapeOfPegelwatch() {
        #expect(LintFiles.summary(LintFiles.lint(Self.folder + "15-pegelwatch-no-aps.apns")) == ["1: error [D1-D8] $"])
    }

    /// The other vectors are real payloads that services accept: no errors.
    @Test func V_acceptedVectorsHaveNoErrors() {
        let refused: Set<String> = ["03-zulip-dm.json", "15-pegelwatch-no-aps.apns", "16-template-placeholders-trailing-commas.apns",
                                    "18-subtitle-emoji-trailing-comma.apns", "27-web-push-book-options-template.json"]
        var errors: [String] = []
        for file in LintFiles.names(in: Self.folder) where !refused.contains(file) {
            for push in LintFiles.lint(Self.folder + file) {
                errors += push.diagnostics.filter { $0.severity == .error }.map { "\(file):\($0.line ?? 0) [\($0.rule)] \($0.path)" }
            }
        }
        #expect(errors == [])
    }
}
