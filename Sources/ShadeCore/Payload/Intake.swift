/// Turns documents (a whole file, one NDJSON line, one HTTP body) into pushes and rejections.
/// Pure: the caller reads the bytes (ShadeIO) and numbers the pushes.
public struct Intake: Sendable {
    public enum Outcome: Sendable, Equatable {
        case push(Push)
        case rejected(Rejection)
    }

    /// The id the next push will get.
    public private(set) var nextID: Int
    /// Reused for every document: parsing a line allocates no token storage after the first.
    var tape = JSONTape()
    /// Holds `tape`'s place while a document is read. Never parsed into (were it, its storage is
    /// shared, so the parse would take storage of its own).
    private static let standIn = JSONTape()
    /// An envelope's routes, channels and header values, and its header names lowercased, as lately
    /// made: a recording's or stream's lines mostly repeat them.
    private var recentValues = RecentTexts(), recentNames = RecentTexts()
    /// The fields of the last few envelopes' transports (`recentTransport`): a recording's lines come
    /// from a few routes, and the lines of one route mostly follow each other.
    private var recentTransports: [Transport] = []
    private static let recentTransportCount = 4

    public init(firstID: Int = 1) { nextID = firstID }

    /// One JSON document: an object, or an array of them (a batch: each element is one push).
    /// `firstLine` is the document's line within its source (NDJSON lines start later in the file).
    /// `oneLine`: the document is a line of NDJSON or a recording, which an error's fix says.
    public mutating func document(_ bytes: [UInt8], source name: String, firstLine: Int = 1,
                                  transport: Transport = Transport(), oneLine: Bool = false) -> [Outcome] {
        bytes.withUnsafeBufferPointer { document($0, source: name, firstLine: firstLine, transport: transport, oneLine: oneLine) }
    }

    /// The same over bytes the caller holds (one line of a recording, parsed where it lies).
    public mutating func document(_ bytes: UnsafeBufferPointer<UInt8>, source name: String, firstLine: Int = 1,
                                  transport: Transport = Transport(), oneLine: Bool = false) -> [Outcome] {
        var outcomes: [Outcome] = []
        document(bytes, source: name, firstLine: firstLine, transport: transport, oneLine: oneLine) { outcomes.append($0) }
        return outcomes
    }

    /// The same, handing each outcome on as it is made rather than gathering them in arrays.
    public mutating func document(_ bytes: [UInt8], source name: String, firstLine: Int = 1,
                                  transport: Transport = Transport(), _ body: (Outcome) -> Void) {
        bytes.withUnsafeBufferPointer { document($0, source: name, firstLine: firstLine, transport: transport, body) }
    }

    /// Read where it lies: shapes, envelopes and batches are read on the tape, and each push keeps
    /// its payload's bytes (no tree is built).
    mutating func document(_ bytes: UnsafeBufferPointer<UInt8>, source name: String, firstLine: Int,
                           transport: Transport, oneLine: Bool = false, _ body: (Outcome) -> Void) {
        // The tape is taken out while its views are read, so that numbering pushes may change `self`.
        // What stands in for it is shared: a new tape would allocate its token storage every document.
        var tape = Self.standIn
        swap(&tape, &self.tape)
        defer { swap(&tape, &self.tape) }
        do {
            try tape.parse(bytes)
        } catch {
            let line = firstLine + error.line - 1
            // A line is one value per line already: its fix is to split the line.
            let message = oneLine && error.message.hasSuffix(JSONTape.oneValuePerDocument)
                ? error.message.dropLast(JSONTape.oneValuePerDocument.count) + JSONTape.oneValuePerLine : error.message
            body(.rejected(Rejection(source: SourcePosition(name: name, line: line),
                                     reason: "invalid JSON (V8) at line \(line), column \(error.column): \(message)")))
            return
        }
        tape.withRoot(bytes) { root in
            guard root.isArray else {
                value(root, source: SourcePosition(name: name, line: firstLine), transport: transport, body)
                return
            }
            // Each element reports at its own line; lines are counted once, walking forward.
            var line = firstLine
            var scanned = 0
            for (element, offset) in zip(root.elements, tape.topOffsets) {
                var i = scanned
                while i < offset { if bytes[i] == 0x0A { line += 1 }; i += 1 }
                scanned = offset
                value(element, source: SourcePosition(name: name, line: line), transport: transport, inBatch: true, body)
            }
        }
    }

    /// How many pushes `bytes` makes (`pushCount`) when it may make more than `limit`, read on the
    /// tape without building a tree: a route refuses a batch over its limit before taking any push.
    /// nil when it cannot be over: not JSON (`document` says where), or too short to hold more than
    /// `limit` values (the fewest bytes for n of them is `[1,1,…]`, 2n + 1), which is every push but
    /// a batch, so the common case reads nothing twice.
    public mutating func pushCount(_ bytes: [UInt8], ifOver limit: Int) -> Int? {
        guard bytes.count > Checked.add(Checked.multiply(2, limit), 2) else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard (try? tape.parse(buffer)) != nil else { return nil }
            return tape.withRoot(buffer) { Self.pushCount($0) }
        }
    }

    /// NDJSON: one document a line (blank lines skipped, `\r\n` accepted). A last line cut short
    /// (no newline and not valid JSON) is reported as truncated, and everything before it counts.
    public mutating func lines(_ bytes: [UInt8], source name: String, transport: Transport = Transport()) -> [Outcome] {
        var outcomes: [Outcome] = []
        forEachLine(bytes, source: name, transport: transport) { outcomes.append($0) }
        return outcomes
    }

    /// The same, handing each outcome on as soon as its line is read: a million-line recording is
    /// applied without holding a million pushes.
    public mutating func forEachLine(_ bytes: [UInt8], source name: String, transport: Transport = Transport(),
                                     _ body: (Outcome) -> Void) {
        bytes.withUnsafeBufferPointer { forEachLine($0, source: name, transport: transport, body) }
    }

    /// Each line is parsed where it lies in `bytes`, not copied out first.
    mutating func forEachLine(_ bytes: UnsafeBufferPointer<UInt8>, source name: String, transport: Transport,
                              _ body: (Outcome) -> Void) {
        var lineNumber = 0
        var start = 0
        let count = bytes.count
        while start < count {
            lineNumber += 1
            var end = start
            while end < count && bytes[end] != 0x0A { end += 1 }
            let terminated = end < count
            line(UnsafeBufferPointer(rebasing: bytes[start..<end]), number: lineNumber, terminated: terminated,
                 source: name, transport: transport, body)
            start = end + 1
        }
    }

    /// One NDJSON line without its `\n` (`terminated` says whether one followed): what a reader that
    /// takes a file in chunks hands over, line by line. A `\r` before the newline is dropped, a blank
    /// line skipped, and an unterminated line that is not valid JSON reported as truncated.
    public mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, number lineNumber: Int, terminated: Bool,
                              source name: String, transport: Transport = Transport(), _ body: (Outcome) -> Void) {
        var stop = bytes.count
        if stop > 0 && bytes[stop - 1] == 0x0D { stop -= 1 }
        var blank = true
        for i in 0..<stop where bytes[i] != 0x20 && bytes[i] != 0x09 { blank = false; break }
        if blank { return }
        let line = UnsafeBufferPointer(rebasing: bytes[0..<stop])
        guard !terminated else {
            document(line, source: name, firstLine: lineNumber, transport: transport, oneLine: true, body)
            return
        }
        let results: [Outcome] = document(line, source: name, firstLine: lineNumber, transport: transport, oneLine: true)
        if results.count == 1, case .rejected(let r) = results[0] {
            body(.rejected(Rejection(source: r.source, reason: "truncated last line (no newline at the end and not complete JSON): " + r.reason)))
        } else {
            for outcome in results { body(outcome) }
        }
    }

    /// How many pushes (or rejections) `value` makes: one per object, arrays and envelopes holding
    /// arrays counted through, as `value(_:source:)` takes them.
    public static func pushCount<V: JSONReadable>(_ value: V) -> Int {
        switch value.kind {
        case .array:
            return value.elements.reduce(0) { Checked.add($0, pushCount($1)) }
        case .object:
            if case .success(.envelope) = PayloadShape.detect(value), let payload = value["payload"] { return pushCount(payload) }
            return 1
        default:
            return 1
        }
    }

    /// An already parsed value (an object, an array or an envelope).
    public mutating func value(_ value: JSON, source: SourcePosition, transport: Transport = Transport()) -> [Outcome] {
        var outcomes: [Outcome] = []
        PayloadStore.make(value).withRoot { root in self.value(root, source: source, transport: transport) { outcomes.append($0) } }
        return outcomes
    }

    /// `inBatch`: an element of a batch, which is a payload and never a batch of its own (SPEC §1:
    /// each object of the top-level array is one push).
    mutating func value(_ value: JSONView, source: SourcePosition, transport: Transport, inBatch: Bool = false,
                        _ body: (Outcome) -> Void) {
        guard value.isObject else {
            if value.isArray && !inBatch {
                for element in value.elements { self.value(element, source: source, transport: transport, inBatch: true, body) }
                return
            }
            let reason = value.isArray ? "a batch element must be a JSON object (a payload); got an array — a batch is one array of payloads, not arrays of arrays"
                : "expected a JSON object (a payload) or an array of them; got \(value.typeName)"
            body(.rejected(Rejection(source: source, reason: reason)))
            return
        }
        switch PayloadShape.detect(PayloadValue.view(value)) {
        case .failure(let mismatch):
            body(.rejected(Rejection(source: source, reason: mismatch.description)))
        case .success(.envelope):
            envelope(value, source: source, transport: transport, body)
        case .success(let shape):
            let id = nextID
            nextID += 1
            body(.push(Push(id: id, store: PayloadStore.make(value), shape: shape, transport: transport, source: source)))
        }
    }

    /// D1: the envelope's headers, route and time apply to its payload. Its members are read in one
    /// pass (the last of a name wins, as a lookup by name takes it).
    mutating func envelope(_ envelope: JSONView, source: SourcePosition, transport outer: Transport, _ body: (Outcome) -> Void) {
        var h: JSONView?, at: JSONView?, path: JSONView?, via: JSONView?, payload: JSONView?
        for (key, value) in envelope.members {
            key.withText { name in
                switch name.count {
                case 2: if Self.named(name, "at") { at = value }
                case 3: if Self.named(name, "via") { via = value }
                case 4: if Self.named(name, "path") { path = value }
                case 7:
                    if Self.named(name, "headers") { h = value } else if Self.named(name, "payload") { payload = value }
                default: break
                }
            }
        }
        var headers = outer.headers
        if let h, h.isObject {
            for (name, value) in h.members {
                guard let text = value.isString ? recentText(value) : value.scalarText else { continue }
                headers[name.withText { recentNames.text($0) { UTF8Text.lowercased(String(decoding: $0, as: UTF8.self)) } }] = text
            }
        }
        var transport = recentTransport(headers: headers, path: path.flatMap { $0.isString ? recentText($0) : nil } ?? outer.path,
                                        via: via.flatMap { $0.isString ? recentText($0) : nil } ?? outer.via, outer: outer)
        if let at, at.isString { transport = at.withText { transport.at($0, orMillis: outer.atMillis) } }
        value(payload!, source: source, transport: transport, body)
    }

    /// A transport of these fields with `outer`'s time: a recent envelope's box of fields when it
    /// holds the same, so that a recording's pushes share a few boxes rather than each making one.
    private mutating func recentTransport(headers: HeaderFields, path: String?, via: String?, outer: Transport) -> Transport {
        let channel = outer.channel
        for i in recentTransports.indices where recentTransports[i].hasFields(headers: headers, path: path, via: via, channel: channel) {
            recentTransports.swapAt(0, i)   // the most recent first: most lines repeat the line before
            return recentTransports[0].withTime(of: outer)
        }
        let made = Transport(headers: headers, path: path, via: via, channel: channel)
        if recentTransports.count == Self.recentTransportCount { recentTransports.removeLast() }
        recentTransports.insert(made, at: 0)
        return made.withTime(of: outer)
    }

    /// A string member's text, made again only when it differs from the recent ones (`RecentTexts`).
    private mutating func recentText(_ string: JSONView) -> String {
        string.withText { recentValues.text($0) { String(decoding: $0, as: UTF8.self) } }
    }

    /// Whether a key's decoded text is `name` (the caller has checked the length).
    @inline(__always)
    private static func named(_ text: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        JSONTape.bytesEqual(text.baseAddress!, name.utf8Start, name.utf8CodeUnitCount)
    }
}
