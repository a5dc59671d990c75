import Testing
import ShadeCore
@testable import ShadeIO

// VAPID (RFC 8292) verification and the APNs provider-token checks of --strict-auth, with the clock
// given. The VAPID tokens were signed by py_vapid 1.9.6 (one key, aud http://127.0.0.1:4747,
// exp 2000000000), as `vapid t=…,k=…` (Vapid02) and as `WebPush …` + `Crypto-Key` (Vapid01).

enum PyVapidTokens {
    static let key = "BE-ev0GH7YgatKPQbHN6FTAR1BlrZddh-qyyZ354ejAxJubcZpNlDivBd9fvIt_O2CripkIzUiMn6z9epWWT8Ew"
    static let vapid = "vapid t=eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9.eyJhdWQiOiJodHRwOi8vMTI3LjAuMC4xOjQ3NDciLCJleHAiOjIwMDAwMDAwMDAsInN1YiI6Im1haWx0bzpkZXZAZXhhbXBsZS5jb20ifQ.R52Yqpsn0ceL03B97nnxF6dZHoCXX727kokqdey1ZmC9Z9iMVdIfcGvbD9OKl7HzmcIf0xTlsOsbO5HO4aNmeg,k=\(key)"
    static let webPush = "WebPush eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9.eyJhdWQiOiJodHRwOi8vMTI3LjAuMC4xOjQ3NDciLCJleHAiOjIwMDAwMDAwMDAsInN1YiI6Im1haWx0bzpkZXZAZXhhbXBsZS5jb20ifQ.ldwmiy_SdddF_omMtwE-u7O3Z_GzI-nOvastmRZQqfiV_1FnGzy6zj6-C0yvjwhQHnqm1g6Sinr_QKXErlmL-g"
    static let exp: Int64 = 2_000_000_000
    static let origins = ["http://127.0.0.1:4747", "https://127.0.0.1:4747"]
}

@Test(arguments: [
    ["Authorization": PyVapidTokens.vapid],
    ["Authorization": PyVapidTokens.webPush, "Crypto-Key": "dh=BP4z9KsN6nGRTbVYI;p256ecdsa=\(PyVapidTokens.key)"],
] as [HTTPHeaders])
func vapidFromPyVapidVerifiesInBothSpellings(headers: HTTPHeaders) {
    let result = VAPID.check(headers, origins: PyVapidTokens.origins, now: PyVapidTokens.exp - 3600)
    #expect(result == .success(VAPID.Signer(publicKey: b64(PyVapidTokens.key), subject: "mailto:dev@example.com")))
}

@Test(arguments: [
    // (headers, now, origins, status and message)
    ([String: String](), PyVapidTokens.exp - 60, PyVapidTokens.origins,
     "401 no VAPID credentials: send Authorization: vapid t=JWT, k=PUBLIC_KEY (RFC 8292) — pywebpush does with vapid_private_key and vapid_claims"),
    (["Authorization": "key=AIzaSy-legacy-gcm"], PyVapidTokens.exp - 60, PyVapidTokens.origins,
     #"401 Authorization scheme "key=AIzaSy-legacy-gcm" is not VAPID: send vapid t=JWT, k=PUBLIC_KEY (RFC 8292), or WebPush JWT with Crypto-Key: p256ecdsa="#),
    (["Authorization": PyVapidTokens.webPush], PyVapidTokens.exp - 60, PyVapidTokens.origins,
     "401 Authorization: WebPush needs the signing key in Crypto-Key: p256ecdsa=PUBLIC_KEY"),
    (["Authorization": "vapid t=abc"], PyVapidTokens.exp - 60, PyVapidTokens.origins,
     "401 Authorization: vapid has no k= (the public key that signed the JWT)"),
    (["Authorization": "vapid t=abc,k=\(PyVapidTokens.key)"], PyVapidTokens.exp - 60, PyVapidTokens.origins,
     "401 VAPID token: not a JWT: it has 1 dot-separated parts, not 3 (header.claims.signature)"),
    (["Authorization": PyVapidTokens.vapid.replacingOccurrences(of: "R52Y", with: "R52Z")], PyVapidTokens.exp - 60, PyVapidTokens.origins,
     "403 the VAPID JWT's signature does not verify with its key (k / p256ecdsa): signed with another key, or changed on the way"),
    (["Authorization": PyVapidTokens.vapid], PyVapidTokens.exp - 60, ["http://localhost:9000"],
     "403 the VAPID JWT's aud is http://127.0.0.1:4747; it must be the endpoint's origin, http://localhost:9000"),
    (["Authorization": PyVapidTokens.vapid], PyVapidTokens.exp + 5, PyVapidTokens.origins,
     "403 the VAPID JWT expired 5 s ago (exp 2000000000): sign a new one"),
    (["Authorization": PyVapidTokens.vapid], PyVapidTokens.exp - 86_401, PyVapidTokens.origins,
     "403 the VAPID JWT's exp is 86401 s ahead; RFC 8292 allows at most 24 hours (86400 s)"),
] as [([String: String], Int64, [String], String)])
func vapidRefusalsSayWhatIsWrong(headers: [String: String], now: Int64, origins: [String], expected: String) {
    let result = VAPID.check(HTTPHeaders(headers.map { HTTPHeaderField(name: $0.key, value: $0.value) }), origins: origins, now: now)
    guard case .failure(let refusal) = result else {
        Issue.record("accepted: \(result)")
        return
    }
    #expect("\(refusal.status) \(refusal.message)" == expected)
}

@Test func vapidAtExactlyTwentyFourHoursAheadIsStillAccepted() {
    let headers: HTTPHeaders = ["Authorization": PyVapidTokens.vapid]
    #expect((try? VAPID.check(headers, origins: PyVapidTokens.origins, now: PyVapidTokens.exp - 86_400).get()) != nil)
}

/// An APNs provider token as a backend makes one: `{"alg": "ES256", "kid": …}.{"iss": …, "iat": …}`, signed.
/// Shade cannot check the signature (Apple keeps the key), so 64 bytes of anything stand in for it.
func providerToken(header: String = #"{"alg":"ES256","kid":"ABC123DEFG"}"#, claims: String, signatureBytes: Int = 64) -> String {
    [Base64URL.encode(Array(header.utf8)), Base64URL.encode(Array(claims.utf8)),
     Base64URL.encode([UInt8](repeating: 0xAB, count: signatureBytes))].joined(separator: ".")
}

let tokenNow: Int64 = 1_796_033_700

@Test(arguments: [
    ([String: String](), "403 MissingProviderToken"),
    (["authorization": "basic dXNlcg=="], "403 InvalidProviderToken"),
    (["authorization": "bearer not-a-jwt"], "403 InvalidProviderToken"),
    (["authorization": "bearer " + providerToken(header: #"{"alg":"HS256","kid":"ABC123DEFG"}"#, claims: #"{"iss":"T","iat":\#(tokenNow)}"#)], "403 InvalidProviderToken"),
    (["authorization": "bearer " + providerToken(header: #"{"alg":"ES256"}"#, claims: #"{"iss":"T","iat":\#(tokenNow)}"#)], "403 InvalidProviderToken"),
    (["authorization": "bearer " + providerToken(claims: #"{"iat":\#(tokenNow)}"#)], "403 InvalidProviderToken"),
    (["authorization": "bearer " + providerToken(claims: #"{"iss":"T","iat":\#(tokenNow)}"#, signatureBytes: 70)], "403 InvalidProviderToken"),
    (["authorization": "bearer " + providerToken(claims: #"{"iss":"T","iat":\#(tokenNow - 3601)}"#)], "403 ExpiredProviderToken"),
    (["authorization": "bearer " + providerToken(claims: #"{"iss":"T","iat":\#(tokenNow - 3600)}"#)], "400 MissingTopic"),
    (["authorization": "bearer " + providerToken(claims: #"{"iss":"T","iat":\#(tokenNow)}"#), "apns-topic": "com.example.app"], "accepted"),
] as [([String: String], String)])
func apnsProviderTokensAreCheckedAsAPNsChecksThem(headers: [String: String], expected: String) {
    let refusal = ServiceCredentials.apns(HTTPHeaders(headers.map { HTTPHeaderField(name: $0.key, value: $0.value) }), now: tokenNow)
    #expect(refusal.map { "\($0.status) \($0.code ?? "")" } ?? "accepted" == expected)
}
