/// When each push of a stream arrives, by the replay rule (DESIGN "Envelope"): a push's `at`, never
/// before the one before it; the pushes of one source line (a batch) together; a line without `at`
/// 250 ms after the one before. `shade replay` times its entries so, and `--offline` decides by it
/// which pushes fall in the window.
public struct ArrivalClock: Sendable {
    /// The gap before a line without a timestamp, at speed 1.
    public static let untimedInterval: Int64 = 250

    private var previous: (time: Int64, source: SourcePosition)?

    public init() {}

    /// The time of the first push (nil before any): what `--offline` offsets count from.
    public private(set) var origin: Int64?

    /// The arrival time of `outcome` (a rejected line takes its place in time too). A stream that
    /// starts without `at` counts from 0.
    public mutating func time(of outcome: Intake.Outcome) -> Int64 {
        let source: SourcePosition
        let stamp: Int64?
        switch outcome {
        case .push(let push): (source, stamp) = (push.source, push.transport.atMillis)
        case .rejected(let rejection): (source, stamp) = (rejection.source, nil)
        }
        let time: Int64
        if let previous, previous.source == source {
            time = previous.time
        } else if let stamp {
            time = max(stamp, previous?.time ?? stamp)
        } else {
            time = previous.map { Checked.add($0.time, Self.untimedInterval) } ?? 0
        }
        previous = (time, source)
        if origin == nil { origin = time }
        return time
    }
}
