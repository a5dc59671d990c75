@preconcurrency import Glibc
import ShadeCore
import ShadeIO

/// `shade listen`: take pushes on a unix socket and loopback HTTP, show them live (or log them headless).
enum ListenCommand {
    static let defaultPort = 4747

    static let command = Command(
        name: "listen",
        summary: "take pushes on a local socket and loopback HTTP, and show them live",
        usage: "shade listen [--socket PATH] [--port N|0] [--bind ADDR] [--record FILE] [--api-key KEY] [--server-secret S] [--unregistered TOKEN]… "
            + "[--fcm-quota N] [--strict-auth] [--headless] [--stats] [--no-color] [--utc] [--ca-dir DIR] [--intercept HOST]… [--no-relay] [profile options]",
        help: """
        Listens on a unix socket (NDJSON or HTTP) and on TCP 127.0.0.1, where one port tells each
        connection apart by its first bytes: NDJSON ({ or [), HTTP/1.1, HTTP/2 with prior knowledge, and
        TLS (HTTP/2 or HTTP/1.1 inside, with a certificate from Shade's local CA for the name asked for).
        It is also an HTTPS proxy: CONNECT to a push service's host is answered by Shade itself, so push
        code runs unchanged behind HTTPS_PROXY (see `shade env`); other hosts are relayed as they are.
        Routes mimic the real services, so your backend or a curl line from the docs can point here:

        \(Route.table.map { "  " + $0 }.joined(separator: "\n"))

        A push a route refuses (as APNs, FCM or a browser would) counts as rejected and is not recorded.
        A request or NDJSON line of more than \(ServiceRules.batchLimit) pushes (Expo: \(ServiceRules.expoBatchLimit)) is refused
        whole with 413. Without a terminal, or with --headless, it prints a line per push and a summary
        when stopped (Ctrl-C, SIGTERM or SIGHUP; the recording is flushed and the socket removed first).

        Options:
          --socket PATH           the unix socket (default $XDG_RUNTIME_DIR/shade/shade.sock, else
                                  /tmp/shade-UID/shade.sock: a directory made 0700 and refused when
                                  another user owns it)
          --port N                the TCP port (default \(defaultPort)); 0 picks a free one and prints it
          --bind ADDR             listen on another address than 127.0.0.1 (anyone who reaches it can push)
          --record FILE           append every accepted push to FILE as an envelope line (replay it later)
          --api-key KEY           every route that takes pushes requires x-api-key: KEY (401 otherwise, in
                                  the route's own error format), and an NDJSON stream over TCP its first
                                  line {"apiKey": "KEY"}; the unix socket, GET /state and /healthz need
                                  none. Or set SHADE_API_KEY, which ps does not show.
          --server-secret S       send-to-user also requires x-server-secret: S (or SHADE_SERVER_SECRET)
          --unregistered TOKEN    answer TOKEN as the service answers a token that is gone (repeatable): APNs
                                  410 Unregistered, FCM UNREGISTERED (404; legacy NotRegistered), Expo
                                  DeviceNotRegistered, a Web Push subscription id 410 — test your clean-up path
          --fcm-quota N           past N FCM v1 messages in a minute, answer as a project over its quota:
                                  429 RESOURCE_EXHAUSTED, errorCode QUOTA_EXCEEDED (firebase-admin raises
                                  QuotaExceededError) until the minute is over. The minute starts at its
                                  first message; refused messages count, the 429s do not. Test your
                                  back-off path (FCM's own quota is \(FCMQuota.fcmDefault) a minute)
          --strict-auth           refuse what the real services refuse for credentials: APNs provider tokens
                                  (authorization: bearer JWT, ES256 with kid and iss, iat within the hour:
                                  MissingProviderToken, InvalidProviderToken, ExpiredProviderToken 403; then
                                  MissingTopic 400), FCM v1 without Authorization: Bearer (401 UNAUTHENTICATED),
                                  send-to-user without x-api-key and x-server-secret (401). Shade cannot verify an
                                  APNs token's signature (only Apple has your key): it checks the rest. Without
                                  the flag such pushes are taken, and the log and inspector say what the service
                                  would have answered. Web Push VAPID is always verified (ES256, aud, exp).
          --ca-dir DIR            the local CA's directory (default $XDG_DATA_HOME/shade/ca, made at first TLS use)
          --intercept HOST        also answer CONNECT HOST itself (repeatable); built in:
        \(builtInHosts)
          --no-relay              refuse CONNECT to other hosts with 403 instead of relaying them
          --headless              no terminal UI: a line per push on standard output
          --stats                 measure the session from the run loop's own clock and print, on standard
                                  error when it stops: pushes per second while they came (and the busiest
                                  second), frames drawn per second (at most 30 in any second: a key is drawn
                                  at once, pushes at most every 40 ms) and the slowest frame, and the worst
                                  and median time from a key's arrival to the frame that shows it. Headless,
                                  the same line every 10 s while pushes come. Check with it that a flood
                                  (say 10k pushes a second) leaves the UI answering keys.
          --no-color              a monochrome terminal UI (NO_COLOR is honoured too)
        \(Shade.utcHelp)
        \(ProfileOptions.help)

        Examples:
          shade listen --port 4747 --record session.jsonl
          curl -X POST http://127.0.0.1:4747/push/send-to-user \\
            -H "x-api-key: $ABROVA_API_KEY" \\
            -H "x-server-secret: $ABROVA_SERVER_SECRET" \\
            -H "content-type: application/json" \\
            -d '{"userId":"user_kian","title":"@ali","body":"Is the bike still available?",
                 "data":{"conversationId":"room_42","senderName":"@ali","senderId":"user_ali",
                         "senderAvatarUrl":"https://cdn.example.com/avatars/ali.jpg"}}'
          curl -v http://127.0.0.1:4747/3/device/a1b2c3 -H "apns-push-type: alert" -d @Samples/seed001-im-apns-loc.apns
          shade send Samples/demo.jsonl
          curl -s http://127.0.0.1:4747/state?platform=all | jq '.profiles[].shown'
          eval "$(shade env)"; python3 my_apns_sender.py     # real push code, through the proxy
        """,
        valueOptions: ["--socket", "--port", "--bind", "--record", "--api-key", "--server-secret", "--unregistered", "--fcm-quota", "--ca-dir", "--intercept"]
            + ProfileOptions.valueOptions,
        flags: ["--headless", "--stats", "--no-color", "--strict-auth", "--no-relay", "--utc"],
        run: run)

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        guard parsed.operands.isEmpty else {
            throw UsageError("`shade listen` takes no files (\(parsed.operands[0])); to play files use `shade replay`, to send them `shade send`")
        }
        let options = try parsed.profileOptions()
        let texts = try Session.resolver(options: options)
        let port = try portOption(parsed) ?? defaultPort
        let bind = parsed.value("--bind") ?? "127.0.0.1"
        if bind != "127.0.0.1" {
            Console.error("shade: warning: listening on \(bind), not 127.0.0.1: anyone who can reach it can push to this Shade and read /state")
        }
        let environment = ProcessEnvironment.current
        let apiKey = try secret(parsed, "--api-key", environment: environment, variable: "SHADE_API_KEY")
        let serverSecret = try secret(parsed, "--server-secret", environment: environment, variable: "SHADE_SERVER_SECRET")
        var journal: Journal?
        if let path = parsed.value("--record") {
            do { journal = try Journal(appendingTo: path) } catch {
                // DESIGN: a usage error names the problem and the fix.
                let fix = error.reason == "No such file or directory" ? " — create its directory first, or give another --record path"
                    : error.reason == "Permission denied" ? " — check the permissions, or give another --record path" : ""
                throw UsageError("--record \(error.description)" + fix)
            }
            if let cut = journal?.repairedBytes, cut > 0 {
                Console.error("shade: warning: --record \(path) ended in a torn line (\(cut) bytes, left by a crash or a full "
                    + "disk, never acknowledged); cut back to its last whole line")
            }
        }
        // Decide headless and take SIGINT/SIGTERM/SIGHUP before anything is announced: a script that stops
        // Shade as soon as it says "listening" must find it ready to stop in order.
        let headless = Headless.isChosen(parsed)
        var signals: SignalPipe?
        if headless {
            do { signals = try SignalPipe() } catch { throw UsageError(error.message) }
        }
        let session = LiveSession(options: options, texts: texts, journal: journal, apiKey: apiKey, serverSecret: serverSecret,
                                  clock: SystemClock(), configuration: try transportConfiguration(parsed))
        session.services.unregistered = Set(parsed.all("--unregistered"))
        session.services.fcmQuota = try fcmQuota(parsed)
        session.services.strictAuth = parsed.has("--strict-auth")
        do {
            session.services.webPush = try WebPushSubscription.loadOrCreate(directory: DataDirectory.webPush())
        } catch {
            session.services.webPushUnavailable = "no Web Push subscription: \(error.description)"
            Console.error("shade: warning: \(error.description): Web Push routes answer 503")
        }
        let socket: String
        if let chosen = parsed.value("--socket") {
            socket = chosen
        } else {
            do { try PrivateFiles.directory(Endpoint.defaultSocketDirectory()) } catch {
                session.shutdown()
                throw UsageError("the socket directory \(error.description)")
            }
            socket = Endpoint.defaultSocketPath()
        }
        let listening: [String]
        do {
            listening = try session.listen(socketPath: socket, port: port, bind: bind)
        } catch {
            session.shutdown()
            throw UsageError(error.message)
        }
        Console.line("shade: listening on " + listening.joined(separator: " and ")
            + (journal.map { ", recording to \($0.path)" } ?? ""))
        Console.line("shade: " + session.transportSummary)
        fflush(stdout)

        if !headless {
            let hint = sendHint(socket: parsed.value("--socket"))
            let stats = parsed.has("--stats") ? SessionStats() : nil
            if let status = runInteractive(session: session, title: "listening on " + listening.joined(separator: " · "), options: options,
                                           texts: texts, recording: journal?.path, emptyHint: hint, localTime: Shade.localTime(parsed),
                                           noColor: parsed.has("--no-color"), stats: stats) {
                // The terminal is back as it was: the last word is what the session took, not the start-up line.
                Console.line(stoppedLine(session, journal: journal, platforms: options.platforms))
                if let stats { Console.error(stats.summary(drawsFrames: true)) }
                return status
            }
        }
        let stats = parsed.has("--stats") ? SessionStats() : nil
        session.keepsTraces = false   // headless: no inspector, and neither the log nor GET /state carries a trace
        let log = Headless.log(session, platforms: options.platforms, localTime: Shade.localTime(parsed))
        do {
            try Headless.run(session, log: log, signals: signals, stats: stats)
        } catch {
            session.shutdown()
            throw UsageError(error.message)
        }
        session.shutdown()
        Console.line(stoppedLine(session, journal: journal, platforms: options.platforms))
        if let stats { Console.error(stats.summary(drawsFrames: false)) }
        return 0
    }

    /// `shade: stopped: 3 received, 2 accepted, 1 refused (2 recorded to s.jsonl); android: …`
    static func stoppedLine(_ session: LiveSession, journal: Journal?, platforms: [Platform]) -> String {
        "shade: stopped: \(session.acceptedCount + session.refusedCount) received, \(session.acceptedCount) accepted, "
            + "\(session.refusedCount) refused\(journal.map { " (\(session.acceptedCount) recorded to \($0.path))" } ?? ""); "
            + PushLog.summary(session, platforms: platforms)
    }

    /// What an empty live shade suggests: a `shade send` line that works from here, with this shade's
    /// socket, and a sample file only where there is one to send.
    static func sendHint(socket: String?) -> String {
        let send = Invocation.command + " send" + (socket.map { " --socket \($0)" } ?? "")
        let sample = "Samples/seed000-send-to-user.json"
        if Invocation.readable(sample) { return "send one: \(send) \(sample)" }
        return "send one: echo '{\"userId\":\"me\",\"title\":\"Hello\",\"body\":\"from shade send\"}' | \(send) -"
    }

    /// The hosts the proxy answers itself, wrapped under the option's description.
    static var builtInHosts: String {
        var lines: [String] = []
        var line = ""
        for host in ProxyPolicy.serviceHosts {
            let word = host + (host == ProxyPolicy.serviceHosts.last ? "" : ",")
            if !line.isEmpty && line.count + word.count > 76 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return (lines + [line]).map { String(repeating: " ", count: 26) + $0 }.joined(separator: "\n")
    }

    /// TLS and the proxy: `--ca-dir`, `--intercept`, `--no-relay`.
    static func transportConfiguration(_ parsed: ParsedArguments) throws(UsageError) -> PollLoop.Configuration {
        var configuration = PollLoop.Configuration()
        configuration.certificateDirectory = try caDirectory(parsed)
        let hosts = parsed.all("--intercept")
        if let problem = hosts.lazy.compactMap(ProxyPolicy.problem(withHost:)).first { throw UsageError("--intercept \(problem)") }
        configuration.proxy = ProxyPolicy(extraHosts: hosts, relays: !parsed.has("--no-relay"))
        return configuration
    }

    /// `--ca-dir DIR`, else `$XDG_DATA_HOME/shade/ca`.
    static func caDirectory(_ parsed: ParsedArguments) throws(UsageError) -> String {
        guard let directory = parsed.value("--ca-dir") else { return DataDirectory.certificateAuthority() }
        guard !directory.isEmpty else { throw UsageError("--ca-dir needs a directory, such as --ca-dir ~/.shade-ca") }
        return directory
    }

    /// `--api-key KEY`, else the environment variable (empty there means unset; empty on the command
    /// line is a mistake).
    static func secret(_ parsed: ParsedArguments, _ option: String, environment: [String: String],
                       variable: String) throws(UsageError) -> String? {
        if let value = parsed.value(option) {
            guard !value.isEmpty else { throw UsageError("\(option) needs a value, such as \(option) dev-key (or set \(variable))") }
            return value
        }
        return environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `--port N`: 0 picks a free port.
    static func fcmQuota(_ parsed: ParsedArguments) throws(UsageError) -> FCMQuota? {
        guard let text = parsed.value("--fcm-quota") else { return nil }
        guard let limit = Int(text), limit > 0 else {
            throw UsageError("--fcm-quota \(text): expected how many FCM v1 messages a minute to take, a whole number from 1 "
                + "(FCM's own default is \(FCMQuota.fcmDefault))")
        }
        return FCMQuota(limit: limit)
    }

    static func portOption(_ parsed: ParsedArguments) throws(UsageError) -> Int? {
        guard let text = parsed.value("--port") else { return nil }
        guard let port = Int(text), (0...65535).contains(port) else {
            throw UsageError("--port \(text): expected a port number from 1 to 65535, or 0 for a free one")
        }
        return port
    }
}
