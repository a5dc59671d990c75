/// What a page's service worker receives in its `push` event once the browser has decrypted a Web
/// Push message, read the way Shade reads any payload. Pure: the route decrypts, this reads.
public enum WebPushPlaintext {
    public struct Reading: Equatable, Sendable {
        /// The payload the web profile receives (and a recording keeps): the plaintext's own JSON,
        /// or `showNotification` arguments made from its text.
        public var payload: JSON
        public var shape: PayloadShape
        /// Which case applied, for the inspector and the log.
        public var note: String
    }

    /// JSON of a known shape is that payload, D6 tried first (a worker's `event.data.json()` most
    /// often holds `showNotification` arguments or a declarative web push), then D2–D8. Anything else
    /// — text, JSON of no known shape, a batch — is what `event.data.text()` gives a worker that shows
    /// it: a notification whose body is that text. No plaintext at all is a push without data.
    public static func read(_ plaintext: [UInt8]) -> Reading {
        guard !plaintext.isEmpty else {
            return Reading(payload: showNotification(body: nil), shape: .webPush,
                           note: "a push without data: the worker's event.data is null and it has nothing to show (counted silent)")
        }
        let text = String(decoding: plaintext, as: UTF8.self)   // event.data.text() decodes UTF-8, replacing what is not
        guard let parsed = try? JSONParser.parse(plaintext) else {
            return Reading(payload: showNotification(body: text), shape: .webPush,
                           note: "the plaintext is not JSON: a notification whose body is the text, as event.data.text() gives it to a worker that shows it")
        }
        if case .object(let object) = parsed {
            if PayloadShape.isWebPush(object) { return json(object, .webPush) }
            if case .success(let shape) = PayloadShape.detect(object), shape != .envelope { return json(object, shape) }
        }
        return Reading(payload: showNotification(body: text), shape: .webPush,
                       note: "the plaintext is JSON of no payload shape Shade knows: shown as text, the body being what event.data.text() gives a worker that shows it")
    }

    static func json(_ object: JSONObject, _ shape: PayloadShape) -> Reading {
        Reading(payload: .object(object), shape: shape,
                note: "the plaintext is JSON, read as \(shape == .webPush ? "a " : "")\(shape.rule) \(shape.displayName) (what event.data.json() gives the worker)")
    }

    /// `showNotification("", {body})`: the worker's title is its own choice, which Shade cannot know.
    static func showNotification(body: String?) -> JSON {
        var options = JSONObject()
        if let body { options["body"] = .string(body) }
        return .object(JSONObject(["title": .string(""), "options": .object(options)]))
    }
}
