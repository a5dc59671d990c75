// Expo's second step: a server sends tickets' ids to `getReceipts` and learns whether each push
// reached Apple or Google. Shade delivered every ticket it handed out with status ok.
import ShadeCore

/// The ticket ids Shade handed out, newest kept when there are very many.
struct ExpoReceipts {
    /// Expo keeps receipts for a day; a session that issues more than this forgets its oldest.
    static let limit = 100_000
    private var issued: Set<String> = []
    private var order: [String] = []
    private var oldest = 0

    mutating func issue(_ id: String) {
        guard issued.insert(id).inserted else { return }
        order.append(id)
        if issued.count > Self.limit {
            issued.remove(order[oldest])
            oldest += 1
            // Compact now and then rather than shifting the array on every ticket.
            if oldest > Self.limit / 2 {
                order.removeFirst(oldest)
                oldest = 0
            }
        }
    }

    func contains(_ id: String) -> Bool { issued.contains(id) }
}

extension LiveSession {
    /// `POST /--/api/v2/push/getReceipts` `{"ids": [...]}` → `{"data": {"ID": {"status": "ok"}, …}}`
    /// for the tickets Shade issued; ids it never issued are left out, as Expo leaves them out.
    func expoReceipts(_ request: HTTPRequest) -> HTTPResponse {
        func invalid(_ message: String) -> HTTPResponse {
            let error = JSONObject(["code": .string("VALIDATION_ERROR"), "message": .string(message)])
            return .json(status: 400, RouteReplies.text(.object(JSONObject(["errors": .array([.object(error)])]))))
        }
        let body: JSON
        do { body = try JSONParser.parse(request.body) } catch {
            return invalid("invalid JSON (V8) at line \(error.line), column \(error.column): \(error.message)")
        }
        guard case .array(let ids)? = body["ids"] else {
            return invalid("getReceipts takes {\"ids\": [\"TICKET_ID\", …]}: the ids of the tickets push/send answered")
        }
        var receipts = JSONObject()
        for (index, id) in ids.enumerated() {
            guard let id = id.string else { return invalid("\"ids\"[\(index)] is \(id.typeName), not a ticket id string") }
            if expoReceipts.contains(id) && receipts[id] == nil {
                receipts.members.append(JSONObject.Member(key: id, value: .object(JSONObject(["status": .string("ok")]))))
            }
        }
        return .json(RouteReplies.text(.object(JSONObject(["data": .object(receipts)]))))
    }
}
