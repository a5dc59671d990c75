// The entries of a replay, read from their inputs as they come due rather than held.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ShadeCore

/// A replay's inputs, opened (files, standard input copied aside) and ready to play: what
/// `InputFiles.openForReplay` gives and `LiveSession.startReplay` takes.
public struct ReplayInputs {
    let inputs: [ReplayFeed.Input]
    public var count: Int { inputs.count }
}

/// Reads a replay's entries in order: an entry is the outcomes of one source position (a line of a
/// recording, a one-line document, each element line of a batch), as `ReplayDriver` plays them.
/// Only the entry being read is in memory, so a recording of any length replays in the memory of a
/// line; `rewind()` starts over, reading the inputs again (seeking back, the demo's loop). Pushes are
/// numbered from `firstID` on every pass, so a rebuilt center is the one played.
final class ReplayFeed {
    enum Input {
        /// Bytes already in memory (the embedded demo, tests).
        case document(InputDocument)
        /// An open file (or standard input copied to an unlinked temporary file), read from the start.
        case file(name: String, fd: Int32, kind: InputDocument.Kind)
    }

    private let inputs: [Input]
    private let firstID: Int
    private var intake: Intake
    private var next = 0                 // the input to open after the current one
    private var reader: LineReader?
    private var readerName = ""
    /// Outcomes read and not yet handed out: the entry being gathered and the one read past it.
    private var pending: [Intake.Outcome] = []

    init(_ inputs: [Input], firstID: Int) {
        self.inputs = inputs
        self.firstID = firstID
        intake = Intake(firstID: firstID)
    }

    deinit {
        for case .file(_, let fd, _) in inputs { close(fd) }
    }

    /// Outcomes held: never more than an entry and the one read past it.
    var pendingCount: Int { pending.count }

    /// The id the next push read will get.
    var nextID: Int { intake.nextID }

    func rewind() {
        intake = Intake(firstID: firstID)
        next = 0
        reader = nil
        pending.removeAll(keepingCapacity: true)
    }

    /// The next entry, or nil when every input is read.
    func nextEntry() -> [Intake.Outcome]? {
        while true {
            if let first = pending.first {
                let source = Self.source(of: first)
                if let end = pending.dropFirst().firstIndex(where: { Self.source(of: $0) != source }) {
                    return take(upTo: end)
                }
            }
            guard produce() else { return pending.isEmpty ? nil : take(upTo: pending.count) }
        }
    }

    private func take(upTo end: Int) -> [Intake.Outcome] {
        let entry = Array(pending[..<end])
        pending.removeSubrange(..<end)   // what stays is the one outcome read past the entry
        return entry
    }

    /// Reads one more line or document into `pending`; false when there is nothing left to read.
    private func produce() -> Bool {
        if let reader {
            if let (line, number, terminated) = reader.next() {
                intake.line(line, number: number, terminated: terminated, source: readerName) { pending.append($0) }
                return true
            }
            self.reader = nil
        }
        guard next < inputs.count else { return false }
        let input = inputs[next]
        next += 1
        switch input {
        case .document(let document):
            if document.kind == .lines {
                pending += intake.lines(document.bytes, source: document.name)
            } else {
                intake.document(document.bytes, source: document.name) { pending.append($0) }
            }
        case .file(let name, let fd, let kind):
            if kind == .lines {
                let reader = LineReader(fd: fd)
                _ = reader.rewind()
                self.reader = reader
                readerName = name
            } else {
                // One document is parsed whole, as `shade state` reads it.
                lseek(fd, 0, SEEK_SET)
                intake.document(InputFiles.readAll(fd: fd) ?? [], source: name) { pending.append($0) }
            }
        }
        return true
    }

    static func source(of outcome: Intake.Outcome) -> SourcePosition {
        switch outcome {
        case .push(let push): push.source
        case .rejected(let rejection): rejection.source
        }
    }
}
