// `POST /token`: Google's OAuth 2.0 token endpoint, as FCM v1 clients (firebase-admin, google-auth)
// call it before their first send. Not a push route: nothing is counted or recorded.
import ShadeCore

enum OAuthToken {
    /// RFC 7523: a service account trades a signed JWT for an access token.
    static let jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// What Google answers: one second short of an hour.
    static let lifetimeSeconds = 3599

    /// `200 {"access_token", "expires_in", "token_type"}` for a jwt-bearer grant whose assertion is a
    /// JWT; `400 {"error", "error_description"}` otherwise, in Google's words where Google has them.
    /// The signature is not checked: the key in a developer's service-account file may well be a dummy.
    static func respond(to request: HTTPRequest, number: Int) -> HTTPResponse {
        let form = HTTPRequest.formItems(Substring(decoding: request.body, as: UTF8.self))
        func value(_ name: String) -> String? { form.first { $0.name == name }?.value ?? nil }
        guard let grant = value("grant_type") else {
            return error("invalid_request", "Missing required parameter: grant_type")
        }
        guard grant == jwtBearerGrant else {
            return error("unsupported_grant_type", "Invalid grant_type: \(grant); Shade answers the \(jwtBearerGrant) grant of service accounts")
        }
        guard let assertion = value("assertion"), !assertion.isEmpty else {
            return error("invalid_request", "Missing required parameter: assertion")
        }
        if let problem = JWTShape.problem(assertion) {
            return error("invalid_grant", "Invalid JWT: \(problem)")
        }
        let body = JSONObject([
            "access_token": .string("ya29.shade-local-token-\(number)"),
            "expires_in": .number(String(lifetimeSeconds)),
            "token_type": .string("Bearer"),
        ])
        return .json(RouteReplies.text(.object(body)))
    }

    private static func error(_ code: String, _ description: String) -> HTTPResponse {
        .json(status: 400, RouteReplies.text(.object(JSONObject([
            "error": .string(code), "error_description": .string(description),
        ]))))
    }
}

/// The outward form of a JWT (RFC 7519): three base64url parts, the first two JSON objects.
enum JWTShape {
    /// Why `token` is not a JWT, or nil when it has the form of one.
    static func problem(_ token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return "a JWT has three dot-separated parts; this has \(parts.count)" }
        for (index, name) in ["header", "claims"].enumerated() {
            guard let bytes = Base64URL.decode(parts[index]) else { return "the \(name) is not base64url" }
            guard case .object? = try? JSONParser.parse(bytes) else { return "the \(name) is not a JSON object" }
        }
        guard !parts[2].isEmpty, Base64URL.decode(parts[2]) != nil else { return "the signature is missing or not base64url" }
        return nil
    }
}

/// Base64url without padding (RFC 4648 §5), as JWTs write it; padding is accepted too.
enum Base64URL {
    static func decode(_ text: Substring) -> [UInt8]? {
        var bits: UInt32 = 0
        var count = 0
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var sawPadding = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") { sawPadding = true; continue }
            guard !sawPadding else { return nil }
            let value: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "-"), UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "_"), UInt8(ascii: "/"): value = 63
            default: return nil
            }
            bits = bits << 6 | value
            count += 6
            if count >= 8 {
                count -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
            }
        }
        return count >= 6 ? nil : out   // a lone trailing character cannot be
    }
}
