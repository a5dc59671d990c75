// Credentials that come as JSON Web Tokens: VAPID (RFC 8292) on Web Push requests, verified; and
// APNs provider tokens, checked as far as Shade can (see `ProviderToken`).
import ShadeCore

/// A compact JWS (RFC 7515 §7.1): `header.claims.signature`, each part base64url.
struct JWT {
    var header: JSONObject
    var claims: JSONObject
    /// `header.claims` as sent: the bytes the signature covers.
    var signingInput: [UInt8]
    var signature: [UInt8]

    /// Why `token` is not a JWT, in a sentence.
    struct Malformed: Error, Equatable {
        var reason: String
    }

    static func parse(_ token: Substring) -> Result<JWT, Malformed> {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(Malformed(reason: "not a JWT: it has \(parts.count) dot-separated parts, not 3 (header.claims.signature)")) }
        guard let headerBytes = Base64URL.decode(parts[0]), case .object(let header)? = try? JSONParser.parse(headerBytes) else {
            return .failure(Malformed(reason: "the JWT header is not base64url JSON"))
        }
        guard let claimBytes = Base64URL.decode(parts[1]), case .object(let claims)? = try? JSONParser.parse(claimBytes) else {
            return .failure(Malformed(reason: "the JWT claims are not base64url JSON"))
        }
        guard let signature = Base64URL.decode(parts[2]) else { return .failure(Malformed(reason: "the JWT signature is not base64url")) }
        return .success(JWT(header: header, claims: claims, signingInput: Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count)),
                            signature: signature))
    }

    /// A NumericDate claim (seconds since the epoch) as an integer; a client controls it, so it is read saturating.
    func seconds(_ claim: String) -> Int64? {
        guard let value = claims[claim] else { return nil }
        switch value {
        case .number(let lexeme):
            let integer = lexeme.split(separator: ".").first.flatMap { Checked.integer($0) }
            return integer.map(Int64.init)
        default:
            return nil
        }
    }
}

/// Why a request's credentials were refused, in the status and words of the service that refuses them.
struct CredentialRefusal: Error, Equatable {
    var status: Int
    /// The service's code: an APNs `reason`, an FCM `status`.
    var code: String?
    var message: String
}

/// RFC 8292: an application server proves who it is to the push service with an ES256 JWT whose
/// `aud` is the push service's origin and whose `exp` is at most 24 hours ahead, and the public key
/// it signed with. Two spellings exist: `Authorization: vapid t=JWT, k=KEY` (RFC 8292 §3) and the
/// drafts' `Authorization: WebPush JWT` with `Crypto-Key: p256ecdsa=KEY` (py_vapid's Vapid01).
enum VAPID {
    static let maxLifetimeSeconds: Int64 = 24 * 60 * 60

    /// Who signed: the key and the `sub` contact the push service would keep.
    struct Signer: Equatable {
        var publicKey: [UInt8]
        var subject: String?
    }

    /// Missing or unreadable credentials are 401 (who is this?); credentials that were read and do
    /// not hold — a bad signature, another audience, an expiry out of range — are 403.
    static func check(_ headers: HTTPHeaders, origins: [String], now seconds: Int64) -> Result<Signer, CredentialRefusal> {
        func unauthorized(_ message: String) -> Result<Signer, CredentialRefusal> {
            .failure(CredentialRefusal(status: 401, code: nil, message: message))
        }
        func forbidden(_ message: String) -> Result<Signer, CredentialRefusal> {
            .failure(CredentialRefusal(status: 403, code: nil, message: message))
        }
        guard let authorization = headers["authorization"].map({ ASCII.trimmed(Substring($0)) }), !authorization.isEmpty else {
            return unauthorized("no VAPID credentials: send Authorization: vapid t=JWT, k=PUBLIC_KEY (RFC 8292) — pywebpush does with vapid_private_key and vapid_claims")
        }
        let scheme = authorization.prefix { $0 != " " }
        let rest = ASCII.trimmed(authorization.dropFirst(scheme.count))
        let token: Substring, keyText: Substring?
        if ASCII.equalIgnoringCase(scheme, "vapid") {
            let parameters = Self.parameters(rest, separators: [","])
            guard let t = parameters["t"] else { return unauthorized("Authorization: vapid has no t= (the JWT)") }
            token = t
            keyText = parameters["k"]
            guard keyText != nil else { return unauthorized("Authorization: vapid has no k= (the public key that signed the JWT)") }
        } else if ASCII.equalIgnoringCase(scheme, "WebPush") {
            token = rest
            keyText = headers.values(for: "crypto-key").lazy.compactMap { Self.parameters(Substring($0), separators: [",", ";"])["p256ecdsa"] }.first
            guard keyText != nil else { return unauthorized("Authorization: WebPush needs the signing key in Crypto-Key: p256ecdsa=PUBLIC_KEY") }
        } else {
            return unauthorized("Authorization scheme \"\(scheme)\" is not VAPID: send vapid t=JWT, k=PUBLIC_KEY (RFC 8292), or WebPush JWT with Crypto-Key: p256ecdsa=")
        }
        guard let keyBytes = keyText.flatMap({ Base64URL.decode($0) }), let key = try? P256Key(publicKey: keyBytes) else {
            return unauthorized("the VAPID public key is not a base64url P-256 point (65 bytes, uncompressed)")
        }
        let jwt: JWT
        switch JWT.parse(token) {
        case .success(let parsed): jwt = parsed
        case .failure(let malformed): return unauthorized("VAPID token: \(malformed.reason)")
        }
        guard jwt.header["alg"]?.string == "ES256" else {
            return unauthorized("the VAPID JWT's alg is \(jwt.header["alg"].map(JSONWriter.compact) ?? "missing"); RFC 8292 requires ES256")
        }
        guard key.verifiesES256(signature: jwt.signature, of: jwt.signingInput) else {
            return forbidden("the VAPID JWT's signature does not verify with its key (k / p256ecdsa): signed with another key, or changed on the way")
        }
        guard let audience = jwt.claims["aud"]?.string else {
            return forbidden("the VAPID JWT has no aud claim; it must be the endpoint's origin, \(origins.first ?? "")")
        }
        guard origins.contains(where: { ASCII.equalIgnoringCase(Substring(audience), $0) }) else {
            return forbidden("the VAPID JWT's aud is \(audience); it must be the endpoint's origin, \(origins.first ?? "")")
        }
        guard let expiry = jwt.seconds("exp") else { return forbidden("the VAPID JWT has no exp claim (seconds since 1970, at most 24 h ahead)") }
        guard expiry > seconds else {
            return forbidden("the VAPID JWT expired \(Checked.subtract(Int(seconds), Int(expiry))) s ago (exp \(expiry)): sign a new one")
        }
        guard expiry <= Checked.add(seconds, maxLifetimeSeconds) else {
            return forbidden("the VAPID JWT's exp is \(Checked.subtract(Int(expiry), Int(seconds))) s ahead; RFC 8292 allows at most 24 hours (86400 s)")
        }
        return .success(Signer(publicKey: keyBytes, subject: jwt.claims["sub"]?.string))
    }

    /// `a=1, b=2` or `a=1;b=2` as a dictionary (values unquoted). Later names do not replace earlier ones.
    static func parameters(_ text: Substring, separators: Set<Character>) -> [String: Substring] {
        var result: [String: Substring] = [:]
        for part in text.split(whereSeparator: { separators.contains($0) }) {
            let pair = ASCII.trimmed(part)
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = ASCII.trimmed(pair[..<equals]).lowercased()
            var value = ASCII.trimmed(pair[pair.index(after: equals)...])
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            if result[name] == nil { result[name] = value }
        }
        return result
    }
}
