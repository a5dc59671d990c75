// `--strict-auth`: the credentials each real service requires before it looks at a push. Without the
// flag Shade takes the push anyway and says (log, inspector) what the service would have answered.
import ShadeCore

enum ServiceCredentials {
    /// APNs refuses a provider token older than an hour (`ExpiredProviderToken`).
    static let providerTokenLifetimeSeconds: Int64 = 60 * 60

    /// What `route`'s service would refuse in these headers, or nil when they carry what it requires.
    static func refusal(for route: Route, headers: HTTPHeaders, now seconds: Int64) -> CredentialRefusal? {
        switch route {
        case .apns: return apns(headers, now: seconds)
        case .fcmV1:
            guard let bearer = bearerToken(headers), !bearer.isEmpty else {
                // Google's own words for a request without an OAuth token.
                return CredentialRefusal(status: 401, code: "UNAUTHENTICATED", message: "Request is missing required authentication credential. "
                    + "Expected OAuth 2 access token, login cookie or other valid authentication credential. (Authorization: Bearer ACCESS_TOKEN)")
            }
            return nil
        case .sendToUser:
            // Asked of every request: the three refusals are made once.
            switch ((headers["x-api-key"] ?? "").isEmpty, (headers["x-server-secret"] ?? "").isEmpty) {
            case (false, false): return nil
            case (true, true): return sendToUserRefusals.both
            case (true, false): return sendToUserRefusals.apiKey
            case (false, true): return sendToUserRefusals.secret
            }
        default:
            return nil
        }
    }

    /// APNs token-based authentication: `authorization: bearer JWT`, an ES256 JWT naming its key (`kid`)
    /// and team (`iss`), issued (`iat`) within the hour; and then `apns-topic`, which token
    /// authentication makes required. Shade cannot verify the signature: only Apple holds the
    /// developer's public key. It checks that there is one, of the size ES256 gives.
    static func apns(_ headers: HTTPHeaders, now seconds: Int64) -> CredentialRefusal? {
        func invalid(_ message: String) -> CredentialRefusal {
            CredentialRefusal(status: 403, code: "InvalidProviderToken", message: message)
        }
        guard let authorization = headers["authorization"], !authorization.isEmpty else {
            return CredentialRefusal(status: 403, code: "MissingProviderToken",
                                     message: "no provider token: send authorization: bearer JWT (ES256, signed with your .p8 key)")
        }
        guard let token = bearerToken(headers) else { return invalid("the authorization header is not bearer JWT") }
        let jwt: JWT
        switch JWT.parse(token) {
        case .success(let parsed): jwt = parsed
        case .failure(let malformed): return invalid("provider token: \(malformed.reason)")
        }
        guard jwt.header["alg"]?.string == "ES256" else { return invalid("the provider token's alg must be ES256") }
        guard let kid = jwt.header["kid"]?.string, !kid.isEmpty else { return invalid("the provider token has no kid (your key's 10-character Key ID)") }
        guard let iss = jwt.claims["iss"]?.string, !iss.isEmpty else { return invalid("the provider token has no iss (your 10-character Team ID)") }
        guard jwt.signature.count == 64 else {
            return invalid("the provider token's signature is \(jwt.signature.count) bytes; ES256 gives 64 (r || s)")
        }
        guard let issued = jwt.seconds("iat") else { return invalid("the provider token has no iat (when it was issued, seconds since 1970)") }
        if Checked.subtract(Int(seconds), Int(issued)) > Int(providerTokenLifetimeSeconds) {
            return CredentialRefusal(status: 403, code: "ExpiredProviderToken",
                                     message: "the provider token was issued \(Checked.subtract(Int(seconds), Int(issued))) s ago (kid \(kid), iss \(iss)); APNs takes tokens at most an hour old")
        }
        guard let topic = headers["apns-topic"], !topic.isEmpty else {
            return CredentialRefusal(status: 400, code: "MissingTopic", message: "token authentication requires apns-topic (your app's bundle id)")
        }
        return nil
    }

    /// The token of `Authorization: Bearer TOKEN` (the scheme's case does not matter).
    static func bearerToken(_ headers: HTTPHeaders) -> Substring? {
        guard let value = headers["authorization"] else { return nil }
        let trimmed = ASCII.trimmed(Substring(value))
        guard trimmed.count > 7, ASCII.equalIgnoringCase(trimmed.prefix(7), "bearer ") else { return nil }
        return ASCII.trimmed(trimmed.dropFirst(7))
    }

    private static let sendToUserRefusals = (apiKey: sendToUser(missing: "x-api-key"), secret: sendToUser(missing: "x-server-secret"),
                                             both: sendToUser(missing: "x-api-key and x-server-secret"))

    private static func sendToUser(missing: String) -> CredentialRefusal {
        CredentialRefusal(status: 401, code: nil, message: "unauthorized: the push service requires x-api-key and x-server-secret; \(missing) empty or missing")
    }

    /// The note a push carries when Shade let it through without `--strict-auth`.
    static func note(_ refusal: CredentialRefusal, service: String) -> String {
        "\(service) would answer \(refusal.status)\(refusal.code.map { " " + $0 } ?? ""): \(refusal.message) "
            + "(Shade accepted it; --strict-auth refuses it as \(service) does)"
    }
}
