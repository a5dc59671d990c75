import Foundation
import Testing
import ShadeCore

// `shade trust` and `shade env` as a user runs them: the real binary, a temporary CA directory.

@Test func envPrintsTheShellLinesThatPointPushCodeAtShade() throws {
    let ca = ServerBuild.temporary("ca dir")   // a space: the paths must stay one word each
    let result = try runShadeCommand(["env", "--port", "5000", "--ca-dir", ca])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(result.stdout == """
        # Push code in this shell now reaches Shade (shade listen --port 5000) instead of the real services.
        export HTTPS_PROXY='http://127.0.0.1:5000'
        export https_proxy='http://127.0.0.1:5000'
        export SSL_CERT_FILE='\(ca)/bundle.pem'
        export REQUESTS_CA_BUNDLE='\(ca)/bundle.pem'
        export CURL_CA_BUNDLE='\(ca)/bundle.pem'
        export NODE_EXTRA_CA_CERTS='\(ca)/ca.pem'

        """)
    // eval'd by a shell, the variables hold exactly those paths.
    let shell = try runProgram("/bin/sh", ["-c", "eval \"$('\(ServerBuild.shade)' env --port 5000 --ca-dir '\(ca)')\" && printf '%s|%s' \"$SSL_CERT_FILE\" \"$https_proxy\""])
    #expect(shell.stdout == "\(ca)/bundle.pem|http://127.0.0.1:5000")
}

@Test func trustMakesTheCAOnceWritesTheBundleAndSaysHowToTrustIt() throws {
    let ca = ServerBuild.temporary("ca")
    let first = try runShadeCommand(["trust", "--ca-dir", ca])
    #expect(first.status == 0)
    let lines = first.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "Shade's local CA:  \(ca)/ca.pem")
    #expect(lines.contains("  eval \"$(shade env)\""))
    #expect(lines.contains("  Debian, Ubuntu:  sudo cp \(ca)/ca.pem /usr/local/share/ca-certificates/shade-local-ca.crt && sudo update-ca-certificates"))
    let attributes = { (name: String) in try FileManager.default.attributesOfItem(atPath: "\(ca)/\(name)")[.posixPermissions] as? Int }
    #expect(try attributes("") == 0o700)
    #expect(try attributes("ca.pem") == 0o600)
    #expect(try attributes("ca-key.pem") == 0o600)
    let certificate = try String(contentsOfFile: "\(ca)/ca.pem", encoding: .utf8)
    let bundle = try String(contentsOfFile: "\(ca)/bundle.pem", encoding: .utf8)
    #expect(bundle.hasSuffix("# Shade local CA (\(ca)/ca.pem)\n" + certificate))
    if FileManager.default.fileExists(atPath: "/etc/ssl/certs/ca-certificates.crt") {
        let system = try String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)
        #expect(bundle.hasPrefix(system))
    }
    // Run again: the same CA (a CA the user trusted is never silently replaced).
    #expect(try runShadeCommand(["trust", "--ca-dir", ca]).status == 0)
    #expect(try String(contentsOfFile: "\(ca)/ca.pem", encoding: .utf8) == certificate)
    // openssl agrees it is a CA certificate.
    let text = try runProgram("/usr/bin/openssl", ["x509", "-in", "\(ca)/ca.pem", "-noout", "-ext", "basicConstraints"])
    #expect(text.stdout.contains("CA:TRUE"))
}

@Test func envRefusesPortZeroAndTrustRefusesFiles() throws {
    let zero = try runShadeCommand(["env", "--port", "0", "--ca-dir", ServerBuild.temporary("ca")])
    #expect(zero.status == 2)
    #expect(zero.stderr == "shade: --port 0 means \"any free port\" to `shade listen`; give `shade env` the port it printed\n")
    let files = try runShadeCommand(["trust", "x.pem"])
    #expect(files.status == 2)
    #expect(files.stderr == "shade: `shade trust` takes no files (x.pem)\n")
}
