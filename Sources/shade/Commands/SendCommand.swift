@preconcurrency import Glibc
import ShadeCore
import ShadeIO

/// `shade send`: every push of the inputs to a running Shade, each reply printed.
enum SendCommand {
    static let command = Command(
        name: "send",
        summary: "send payload files to a running Shade and print each reply",
        usage: "shade send [--socket PATH | --port N] [--header 'k: v']… FILE…|-",
        help: """
        Sends every payload of the inputs to a Shade started with `shade listen`: over its unix socket as
        NDJSON (one line per document, a batch array as one line), or with --port as HTTP POST /push
        (POST /3/device/… when an apns-* header is given, as APNs takes it). .apns files made for
        `xcrun simctl push` work unchanged. Prints one reply per payload.

        Exit status: 0 when every push was taken, 1 when any was refused (or is not valid JSON),
        2 when no Shade listens.

        Options:
          --socket PATH        the socket of the listening Shade (default $XDG_RUNTIME_DIR/shade/shade.sock,
                               else /tmp/shade-UID/shade.sock); a socket another user owns, or one
                               another user's process listens on, is refused
          --port N             send over HTTP to 127.0.0.1:N instead
          --header 'k: v'      a transport header for every push (apns-push-type, apns-collapse-id, …);
                               repeatable. Over the socket the pushes go as envelopes carrying it.

        Examples:
          shade send Samples/seed000-send-to-user.json
          shade send Samples/                       # every payload file, in name order
          shade send --header 'apns-push-type: voip' call.apns
          shade send --port 4747 --header 'apns-collapse-id: room_42' Samples/seed001-im-apns-loc.apns
          echo '{"aps":{"alert":"hi"}}' | shade send -
        """,
        valueOptions: ["--socket", "--port", "--header"],
        flags: [],
        run: run,
        operands: .files)

    /// A placeholder device token for APNs requests made from files (64 hex digits, as APNs issues them).
    static let placeholderDeviceToken = String(repeating: "5ade", count: 16)

    /// One payload to send: a whole document or one line of an NDJSON file.
    struct Unit {
        var source: String
        var bytes: [UInt8]
        var value: JSON
    }

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        let inputs = try Shade.requireInputs(parsed, command: "send")
        if parsed.value("--socket") != nil && parsed.value("--port") != nil {
            throw UsageError("give --socket or --port, not both")
        }
        let headers = try headerOptions(parsed)
        let documents = try Session.documents(inputs)

        var refused = 0
        var units: [Unit] = []
        for document in documents {
            for (source, bytes) in pieces(of: document) {
                do {
                    units.append(Unit(source: source, bytes: bytes, value: try JSONParser.parse(bytes)))
                } catch {
                    Console.line("\(source): not sent: invalid JSON (V8) at line \(error.line), column \(error.column): \(error.message)")
                    refused += 1
                }
            }
        }

        let endpoint: Endpoint
        if let port = try ListenCommand.portOption(parsed) {
            guard port > 0 else { throw UsageError("--port 0 is for `shade listen`; give the port the listening Shade printed") }
            endpoint = .loopback(port: UInt16(port))
        } else {
            endpoint = .unix(path: parsed.value("--socket") ?? Endpoint.defaultSocketPath())
        }
        let client: SendClient
        do {
            client = try SendClient(connectingTo: endpoint)
        } catch {
            return Shade.usageFailure(error.message)
        }
        do {
            switch endpoint {
            case .unix: refused += try sendLines(units, headers: headers, client: client)
            case .tcp: refused += try sendRequests(units, headers: headers, client: client)
            }
        } catch {
            Console.error("shade: \(error.message)")
            return 1
        }
        fflush(stdout)
        return refused > 0 ? 1 : 0
    }

    /// `--header 'name: value'`, in order.
    static func headerOptions(_ parsed: ParsedArguments) throws(UsageError) -> [(name: String, value: String)] {
        try parsed.values.filter { $0.name == "--header" }.map { option throws(UsageError) in
            guard let colon = option.value.firstIndex(of: ":") else {
                throw UsageError("--header \(option.value): expected 'name: value', e.g. --header 'apns-push-type: alert'")
            }
            let name = trimmed(option.value[..<colon])
            let value = trimmed(option.value[option.value.index(after: colon)...])
            guard !name.isEmpty, !name.contains(" ") else {
                throw UsageError("--header \(option.value): the header name is missing or has a space")
            }
            return (name.lowercased(), value)
        }
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// What goes out for a document: the whole of it, or each non-blank line of an NDJSON file.
    static func pieces(of document: InputDocument) -> [(source: String, bytes: [UInt8])] {
        guard document.kind == .lines else { return [(document.name, document.bytes)] }
        return LineFramer.lines(of: document.bytes, unterminatedLastLine: .accepted).compactMap { line in
            guard case .line(let bytes, let number) = line else { return nil }
            return ("\(document.name):\(number)", bytes)
        }
    }

    /// Over the socket: each payload as one NDJSON line (wrapped in an envelope when headers are given).
    static func sendLines(_ units: [Unit], headers: [(name: String, value: String)], client: SendClient) throws(SendError) -> Int {
        let lines = units.map { unit in JSONWriter.compactBytes(headers.isEmpty ? unit.value : wrap(unit.value, headers: headers)) }
        let replies = try client.send(lines: lines)
        var refused = 0
        for (unit, reply) in zip(units, replies) {
            let text = String(decoding: reply, as: UTF8.self)
            Console.line("\(unit.source): \(text)")
            if (try? JSONParser.parse(reply))?["ok"]?.bool != true { refused += 1 }
        }
        return refused
    }

    /// An envelope (D1) around a payload, or around each element of a batch.
    static func wrap(_ value: JSON, headers: [(name: String, value: String)]) -> JSON {
        if case .array(let elements) = value { return .array(elements.map { wrap($0, headers: headers) }) }
        let fields = JSONObject(headers.map { JSONObject.Member(key: $0.name, value: .string($0.value)) })
        return .object(JSONObject(["headers": .object(fields), "payload": value]))
    }

    /// With --port: each payload as an HTTP request, on one kept-alive connection.
    static func sendRequests(_ units: [Unit], headers: [(name: String, value: String)], client: SendClient) throws(SendError) -> Int {
        var httpHeaders = HTTPHeaders()
        for header in headers { httpHeaders.add(header.name, header.value) }
        let path = headers.contains { $0.name.hasPrefix("apns-") } ? "/3/device/\(placeholderDeviceToken)" : "/push"
        var refused = 0
        for unit in units {
            let response = try client.post(path: path, headers: httpHeaders, body: unit.bytes)
            var shown = "\(response.status)"
            if let apnsID = response.headers["apns-id"] { shown += " apns-id: \(apnsID)" }
            if !response.body.isEmpty { shown += " " + String(decoding: response.body, as: UTF8.self) }
            Console.line("\(unit.source): \(shown)")
            let ok = (try? JSONParser.parse(response.body))?["ok"]?.bool
            if response.status >= 400 || ok == false { refused += 1 }
        }
        return refused
    }
}
