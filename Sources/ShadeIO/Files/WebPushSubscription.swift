// The Web Push subscription Shade plays the browser for: made once, kept in the data directory
// (`webpush/subscription.json`, 0600 in a 0700 directory) so a backend that stored it keeps working.
import ShadeCore

public struct WebPushSubscription {
    /// The last path segment of the endpoint: derived from the public key, so it names these keys.
    public let id: String
    public let receiver: WebPushReceiver

    public static let fileName = "subscription.json"

    init(receiver: WebPushReceiver) {
        self.receiver = receiver
        id = Base64URL.encode(Array(Crypto.sha256(receiver.key.publicKey).prefix(12)))
    }

    /// The path Shade takes this subscription's pushes on.
    public var path: String { "/webpush/" + id }

    /// A PushSubscription as `pushManager.subscribe()` gives it to the page (its `toJSON()`).
    public func json(origin: String) -> JSON {
        .object(JSONObject([
            "endpoint": .string(origin + path),
            "expirationTime": .null,
            "keys": .object(JSONObject([
                "p256dh": .string(Base64URL.encode(receiver.key.publicKey)),
                "auth": .string(Base64URL.encode(receiver.authSecret)),
            ])),
        ]))
    }

    /// The same as one line of JSON, as `GET /webpush/subscription` answers it.
    public func text(origin: String) -> String { RouteReplies.text(json(origin: origin)) }

    /// The subscription kept in `directory`, made (new keys from OpenSSL) when there is none.
    public static func loadOrCreate(directory: String) throws(PrivateFileError) -> WebPushSubscription {
        let path = DataDirectory.join(directory, fileName)
        try PrivateFiles.directory(directory)
        if let bytes = try PrivateFiles.read(path) { return try parse(bytes, path: path) }
        let receiver: WebPushReceiver
        do {
            receiver = WebPushReceiver(key: try P256Key.generate(), authSecret: try Crypto.randomBytes(16))
        } catch {
            throw PrivateFileError(path: path, reason: "cannot make Web Push keys: \(error.message)")
        }
        let subscription = WebPushSubscription(receiver: receiver)
        try PrivateFiles.write(Array((JSONWriter.compact(subscription.stored) + "\n").utf8), to: path)
        return subscription
    }

    /// What the file holds: the receiver's keys as a browser keeps them (JWK-like, base64url).
    var stored: JSON {
        .object(JSONObject([
            "p256dh": .string(Base64URL.encode(receiver.key.publicKey)),
            "auth": .string(Base64URL.encode(receiver.authSecret)),
            "privateKey": .string(Base64URL.encode(receiver.key.privateScalar)),
        ]))
    }

    static func parse(_ bytes: [UInt8], path: String) throws(PrivateFileError) -> WebPushSubscription {
        func broken(_ what: String) -> PrivateFileError {
            PrivateFileError(path: path, reason: "\(what) — remove the file to have Shade make a new subscription (senders must then use the new one)")
        }
        guard case .object(let object)? = try? JSONParser.parse(bytes) else { throw broken("is not JSON") }
        func field(_ name: String, count: Int) throws(PrivateFileError) -> [UInt8] {
            guard let text = object[name]?.string, let value = Base64URL.decode(text), value.count == count else {
                throw broken("has no \(name) of \(count) bytes (base64url)")
            }
            return value
        }
        let publicKey = try field("p256dh", count: 65), auth = try field("auth", count: 16), scalar = try field("privateKey", count: 32)
        do {
            return WebPushSubscription(receiver: WebPushReceiver(key: try P256Key(privateScalar: scalar, publicKey: publicKey), authSecret: auth))
        } catch {
            throw broken("holds keys OpenSSL refuses (\(error.message))")
        }
    }
}
