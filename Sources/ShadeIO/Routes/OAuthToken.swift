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
        switch JWT.parse(Substring(assertion)) {
        case .failure(let malformed):
            return error("invalid_grant", "Invalid JWT: \(malformed.reason)")
        case .success(let jwt) where jwt.signature.isEmpty:
            return error("invalid_grant", "Invalid JWT: it is not signed (a service account signs it with its private key)")
        case .success:
            break
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
