@preconcurrency import Glibc
import ShadeCore
import ShadeIO

/// `shade trust`: make the local CA if missing, write `bundle.pem`, say how to trust the CA.
enum TrustCommand {
    /// Debian's and Ubuntu's bundle of trusted CAs (what OpenSSL, Python and curl read there).
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    static let command = Command(
        name: "trust",
        summary: "make Shade's local CA (if missing) and print how to trust it",
        usage: "shade trust [--ca-dir DIR]",
        help: """
        Shade answers TLS with certificates its own CA signs for the host name a client asks for
        (api.push.apple.com, fcm.googleapis.com, …). Your push code accepts them once it trusts that CA.
        This command makes the CA when there is none (ca.pem and ca-key.pem, mode 0600, in a 0700
        directory), writes bundle.pem beside it (the system's CAs followed by Shade's, for tools that read
        one bundle), and prints the paths and the commands that trust the CA system-wide. To trust it in
        one shell only, use `eval "$(shade env)"` instead.

        Options:
          --ca-dir DIR            the CA's directory (default $XDG_DATA_HOME/shade/ca, i.e. ~/.local/share/shade/ca)

        Examples:
          shade trust
          sudo cp ~/.local/share/shade/ca/ca.pem /usr/local/share/ca-certificates/shade-local-ca.crt && sudo update-ca-certificates
        """,
        valueOptions: ["--ca-dir"],
        flags: [],
        run: run)

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        guard parsed.operands.isEmpty else { throw UsageError("`shade trust` takes no files (\(parsed.operands[0]))") }
        let authority: CertificateAuthority
        let withSystem: Bool
        let directory = try ListenCommand.caDirectory(parsed)
        do {
            (authority, withSystem) = try prepare(directory: directory)
        } catch {
            Console.error("shade: \(error.message)")
            return 1
        }
        let ca = authority.certificatePath
        Console.text("""
        Shade's local CA:  \(ca)
        its private key:   \(authority.keyPath) (mode 0600; keep it to yourself)
        bundle:            \(authority.bundlePath) (\(withSystem ? "the system's CAs from \(systemBundle) and Shade's" : "Shade's CA only: no system bundle at \(systemBundle)"))

        Trust it in one shell (nothing system-wide changes):
          eval "$(shade env)"

        Or trust it system-wide:
          Debian, Ubuntu:  sudo cp \(ca) /usr/local/share/ca-certificates/shade-local-ca.crt && sudo update-ca-certificates
          Fedora, RHEL:    sudo cp \(ca) /etc/pki/ca-trust/source/anchors/shade-local-ca.pem && sudo update-ca-trust
          macOS:           sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain \(ca)
          Java (pushy):    keytool -importcert -noprompt -alias shade-local-ca -file \(ca) -cacerts -storepass changeit
          Node.js:         NODE_EXTRA_CA_CERTS=\(ca) node app.js

        """)
        return 0
    }

    /// The CA (made if missing) and a fresh bundle.pem; whether the bundle holds the system's CAs too.
    static func prepare(directory: String) throws(CertificateError) -> (CertificateAuthority, Bool) {
        let authority = try CertificateAuthority.loadOrCreate(directory: directory)
        let withSystem = try authority.writeBundle(systemBundle: systemBundle)
        return (authority, withSystem)
    }
}

/// `shade env`: shell lines that point a process's push code at Shade.
enum EnvCommand {
    static let command = Command(
        name: "env",
        summary: "print shell lines that point push code at Shade: eval \"$(shade env)\"",
        usage: "shade env [--port N] [--ca-dir DIR]",
        help: """
        Prints export lines for the variables push libraries read: HTTPS_PROXY (and https_proxy, which
        some tools read instead) send their HTTPS calls through Shade's CONNECT proxy, which answers the
        push services' hosts itself and relays every other host unchanged; SSL_CERT_FILE (OpenSSL, Python's
        ssl, httpx), REQUESTS_CA_BUNDLE (requests) and CURL_CA_BUNDLE (curl) name bundle.pem, the system's
        CAs plus Shade's; NODE_EXTRA_CA_CERTS names Shade's CA for Node.js. The CA and the bundle are made
        when missing (see `shade trust`). Start Shade with `shade listen` on the same port.

        Options:
          --port N                the port Shade listens on (default \(ListenCommand.defaultPort))
          --ca-dir DIR            the CA's directory (default $XDG_DATA_HOME/shade/ca)

        Examples:
          eval "$(shade env)" && python3 send_apns.py
          eval "$(shade env --port 5000)" && node push.js
        """,
        valueOptions: ["--port", "--ca-dir"],
        flags: [],
        run: run)

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        guard parsed.operands.isEmpty else { throw UsageError("`shade env` takes no files (\(parsed.operands[0]))") }
        let port = try ListenCommand.runningPort(parsed, for: "shade env")
        let authority: CertificateAuthority
        let directory = try ListenCommand.caDirectory(parsed)
        do {
            (authority, _) = try TrustCommand.prepare(directory: directory)
        } catch {
            Console.error("shade: \(error.message)")
            return 1
        }
        Console.text(lines(port: port, bundle: authority.bundlePath, ca: authority.certificatePath) + "\n")
        return 0
    }

    static func lines(port: Int, bundle: String, ca: String) -> String {
        let proxy = "http://127.0.0.1:\(port)"
        return """
        # Push code in this shell now reaches Shade (shade listen --port \(port)) instead of the real services.
        export HTTPS_PROXY=\(quoted(proxy))
        export https_proxy=\(quoted(proxy))
        export SSL_CERT_FILE=\(quoted(bundle))
        export REQUESTS_CA_BUNDLE=\(quoted(bundle))
        export CURL_CA_BUNDLE=\(quoted(bundle))
        export NODE_EXTRA_CA_CERTS=\(quoted(ca))
        """
    }

    /// Single-quoted for the shell: a path with spaces or `$` stays one word, unexpanded.
    static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
