// Shade as a push service and a browser at once: it hands out a subscription, takes what an
// application server posts to its endpoint (RFC 8030), checks VAPID (RFC 8292), decrypts (RFC 8291)
// and gives the web profile what the page's service worker would receive.
import ShadeCore

extension LiveSession {
    /// `GET /webpush/subscription`: the PushSubscription a page would send its server.
    func webPushSubscription(_ request: HTTPRequest) -> HTTPResponse {
        guard let subscription = services.webPush else {
            return .error(status: 503, services.webPushUnavailable ?? "this Shade has no Web Push subscription")
        }
        return .json(subscription.text(origin: origin(of: request)))
    }

    /// `POST /webpush/{id}`. Refusals answer as push services do; those about the message itself
    /// (TTL, size, encryption) count as rejected on the web profile, and nothing refused is recorded.
    func webPush(_ request: HTTPRequest, id: String, from connection: ConnectionInfo) -> HTTPResponse {
        if services.unregistered.contains(id) {
            return Self.webPushError(410, "the subscription \(id) is unregistered (--unregistered): the user unsubscribed or the browser "
                + "dropped it — delete it from your database")
        }
        guard let subscription = services.webPush, subscription.id == id else {
            let hint = services.webPush == nil ? (services.webPushUnavailable ?? "this Shade has no subscription")
                : "GET /webpush/subscription (or `shade subscription`) gives the one this Shade receives for"
            return Self.webPushError(404, "no subscription \(id): \(hint)")
        }
        let signer: VAPID.Signer
        switch VAPID.check(request.headers, origins: vapidAudiences(request), now: services.credentialClock.nowMillis() / 1000) {
        case .success(let found): signer = found
        case .failure(let refusal):
            var response = Self.webPushError(refusal.status, refusal.message)
            if refusal.status == 401 { response.headers.set("WWW-Authenticate", "vapid") }
            return response
        }
        let source = SourcePosition(name: "\(connection) \(request.method) \(request.path)")
        // The request's content-type described the ciphertext, not what the worker gets: left out.
        let transport = Transport(headers: PushHeaders.metadata(request.headers).filter { $0.key != "content-type" },
                                  path: request.path, via: Push.webPushVia, channel: connection.channel)
        func refused(_ status: Int, _ message: String) -> HTTPResponse {
            refuse(Push(id: 0, payload: .null, shape: .webPush, transport: transport, source: source),
                   PushRefusal(status: status, code: nil, message: message))
            return Self.webPushError(status, message)
        }
        let ttl: Int
        switch WebPushHeaders.ttl(request.headers) {
        case .success(let seconds): ttl = seconds
        case .failure(let problem): return refused(400, problem.message)
        }
        if let message = WebPushHeaders.urgencyProblem(request.headers) ?? WebPushHeaders.topicProblem(request.headers) {
            return refused(400, message)
        }
        guard request.body.count <= ServiceRules.webPushLimit else {
            return refused(413, "the encrypted body is \(request.body.count) bytes; push services take at most \(ServiceRules.webPushLimit)")
        }
        let plaintext: [UInt8], coding: String
        switch decrypt(request, for: subscription.receiver) {
        case .success(let result): (plaintext, coding) = result
        case .failure(let error): return refused(400, error.message)
        }

        let reading = WebPushPlaintext.read(plaintext)
        var push = Push(id: 0, payload: reading.payload, shape: reading.shape, transport: transport, source: source)
        push.notes = [coding.isEmpty ? reading.note : "decrypted (\(coding)) with the subscription's keys; " + reading.note,
                      "VAPID signed by \(Base64URL.encode(signer.publicKey).prefix(12))…" + (signer.subject.map { " (sub \($0))" } ?? " (no sub claim)")]
        guard case .accepted(let accepted) = admit([.push(push)], service: .webPush)[0] else {
            // The only refusal left is the journal's: the push could not be recorded.
            return Self.webPushError(500, "the push could not be recorded, so it was not shown — see Shade's log")
        }
        // RFC 8030 §5: 201 with the push message resource, and the TTL the service kept it for.
        return HTTPResponse(status: 201, headers: [
            "Location": origin(of: request) + "/webpush/messages/" + replies.uuid(for: accepted.id),
            "TTL": String(ttl),
        ])
    }

    /// The plaintext and the coding it came in; a body with no coding is a push without data.
    func decrypt(_ request: HTTPRequest, for receiver: WebPushReceiver) -> Result<([UInt8], String), WebPushDecryptionError> {
        let coding = (request.headers["content-encoding"] ?? "").lowercased()
        do throws(WebPushDecryptionError) {
            switch coding {
            case "aes128gcm":
                return .success((try WebPushDecryption.aes128gcm(request.body, receiver: receiver), coding))
            case "aesgcm":
                let encryption = VAPID.parameters(Substring(request.headers["encryption"] ?? ""), separators: [",", ";"])
                let cryptoKey = request.headers.values(for: "crypto-key").reduce(into: [String: Substring]()) { all, value in
                    all.merge(VAPID.parameters(Substring(value), separators: [",", ";"])) { first, _ in first }
                }
                guard let salt = encryption["salt"].flatMap({ Base64URL.decode($0) }) else {
                    throw WebPushDecryptionError("aesgcm needs Encryption: salt=SALT (16 bytes, base64url)")
                }
                guard let dh = cryptoKey["dh"].flatMap({ Base64URL.decode($0) }) else {
                    throw WebPushDecryptionError("aesgcm needs the sender's key in Crypto-Key: dh=KEY (base64url)")
                }
                let recordSize = encryption["rs"].map { Checked.integer($0) ?? -1 } ?? 4096
                return .success((try WebPushDecryption.aesgcm(request.body, salt: salt, recordSize: recordSize, senderKey: dh, receiver: receiver), coding))
            case "" where request.body.isEmpty:
                return .success(([], ""))
            case "":
                throw WebPushDecryptionError("a body without Content-Encoding: push services take only encrypted bodies (aes128gcm, RFC 8291)")
            default:
                throw WebPushDecryptionError("Content-Encoding \(coding) is not a Web Push encryption: use aes128gcm (RFC 8291), or the older aesgcm")
            }
        } catch {
            return .failure(error)
        }
    }

    /// `http://HOST` from the request's Host: the origin the client reached Shade at.
    func origin(of request: HTTPRequest) -> String {
        "http://" + host(of: request)
    }

    /// VAPID's `aud` must be the endpoint's origin: Shade's, over plain HTTP or inside TLS.
    func vapidAudiences(_ request: HTTPRequest) -> [String] {
        let host = host(of: request)
        return ["http://" + host, "https://" + host]
    }

    private func host(of request: HTTPRequest) -> String {
        if let host = request.headers["host"], !host.isEmpty { return host }
        return "127.0.0.1" + (tcpPort.map { ":\($0)" } ?? "")
    }

    /// A push service's refusal: the status and a JSON body saying why.
    static func webPushError(_ status: Int, _ message: String) -> HTTPResponse {
        .json(status: status, RouteReplies.text(.object(JSONObject([
            "code": .number(String(status)),
            "error": .string(HTTPResponse.reasonPhrase(for: status)),
            "message": .string(message),
        ]))))
    }
}

/// RFC 8030's request headers: `TTL` (required), `Urgency`, `Topic`.
enum WebPushHeaders {
    static let urgencies = ["very-low", "low", "normal", "high"]

    /// §5.2: a push service refuses a request without TTL. Seconds, a client's number: read saturating.
    struct Problem: Error, Equatable {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static func ttl(_ headers: HTTPHeaders) -> Result<Int, Problem> {
        guard let text = headers["ttl"] else {
            return .failure(Problem("no TTL header: a push service needs to know how long to keep the message (RFC 8030 §5.2), e.g. TTL: 86400"))
        }
        guard let seconds = Checked.integer(ASCII.trimmed(Substring(text))), seconds >= 0 else {
            return .failure(Problem("TTL \(text) is not a number of seconds (0 or more)"))
        }
        return .success(seconds)
    }

    /// §5.3
    static func urgencyProblem(_ headers: HTTPHeaders) -> String? {
        guard let urgency = headers["urgency"], !urgencies.contains(urgency.lowercased()) else { return nil }
        return "Urgency \(urgency) is not one of \(urgencies.joined(separator: ", ")) (RFC 8030 §5.3)"
    }

    /// §5.4: at most 32 characters of the base64url alphabet.
    static func topicProblem(_ headers: HTTPHeaders) -> String? {
        guard let topic = headers["topic"] else { return nil }
        let base64url = topic.utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
        guard topic.isEmpty || topic.utf8.count > 32 || !base64url else { return nil }
        return "Topic \(topic) must be 1 to 32 characters of the base64url alphabet (RFC 8030 §5.4)"
    }
}
