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
        if case .object(let object)? = try? JSONParser.parse(plaintext) {
            if PayloadShape.isWebPush(object) {
                return Reading(payload: .object(object), shape: .webPush,
                               note: "the plaintext is JSON, read as a \(PayloadShape.webPush.rule) \(PayloadShape.webPush.displayName) (what event.data.json() gives the worker)")
            }
            switch PayloadShape.detect(object) {
            case .success(let shape) where shape != .envelope:
                return Reading(payload: .object(object), shape: shape,
                               note: "the plaintext is JSON, read as \(shape.rule) \(shape.displayName) (what event.data.json() gives the worker)")
            case .success, .failure:
                let text = String(decoding: plaintext, as: UTF8.self)
                return Reading(payload: showNotification(body: text), shape: .webPush,
                               note: "the plaintext is JSON of no payload shape Shade knows: shown as text, the body being what event.data.text() gives a worker that shows it")
            }
        }
        // event.data.text() decodes UTF-8, replacing what is not.
        let text = String(decoding: plaintext, as: UTF8.self)
        return Reading(payload: showNotification(body: text), shape: .webPush,
                       note: "the plaintext is not JSON: a notification whose body is the text, as event.data.text() gives it to a worker that shows it")
    }

    /// `showNotification("", {body})`: the worker's title is its own choice, which Shade cannot know.
    static func showNotification(body: String?) -> JSON {
        var options = JSONObject()
        if let body { options["body"] = .string(body) }
        return .object(JSONObject(["title": .string(""), "options": .object(options)]))
    }
}
