import Testing
@testable import ShadeCore

/// `SlidingArray` holds an item's kept lines (I5's 64, A1's 25): it must answer exactly as an
/// `Array` given the same operations would, whatever the mix.

private enum Operation: CustomStringConvertible {
    case append(Int), removeFirst(Int), removeAt(Int), set(Int, Int), removeWhere(Int), removeAll
    var description: String {
        switch self {
        case .append(let v): "append(\(v))"
        case .removeFirst(let k): "removeFirst(\(k))"
        case .removeAt(let i): "remove(at: \(i))"
        case .set(let i, let v): "[\(i)] = \(v)"
        case .removeWhere(let m): "removeAll(where: multiple of \(m))"
        case .removeAll: "removeAll()"
        }
    }
}

/// A deterministic mix of operations, weighted towards what a stack does: append, trim the front.
private func operations(seed: UInt64, count: Int) -> [Operation] {
    var state = seed
    func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(max(bound, 1)))
    }
    var length = 0
    var out: [Operation] = []
    for _ in 0..<count {
        let roll = next(100)
        let op: Operation
        if roll < 55 || length == 0 { op = .append(next(1000)) }
        else if roll < 80 { op = .removeFirst(next(length + 1)) }
        else if roll < 88 { op = .removeAt(next(length)) }
        else if roll < 96 { op = .set(next(length), next(1000)) }
        else if roll < 99 { op = .removeWhere(2 + next(5)) }
        else { op = .removeAll }
        switch op {
        case .append: length += 1
        case .removeFirst(let k): length -= k
        case .removeAt: length -= 1
        case .removeWhere, .removeAll: length = -1   // recounted below
        case .set: break
        }
        out.append(op)
        if length < 0 { length = 0; out.append(.removeAll) }   // keep the model's length known
    }
    return out
}

@Test(arguments: [1, 2, 3, 42, 2026] as [UInt64])
func slidingArrayAnswersAsAnArrayWouldForAnyMixOfOperations(seed: UInt64) {
    var sliding = SlidingArray<Int>()
    var array: [Int] = []
    for (step, op) in operations(seed: seed, count: 3000).enumerated() {
        switch op {
        case .append(let v): sliding.append(v); array.append(v)
        case .removeFirst(let k): sliding.removeFirst(k); array.removeFirst(k)
        case .removeAt(let i): #expect(sliding.remove(at: i) == array.remove(at: i))
        case .set(let i, let v): sliding[i] = v; array[i] = v
        case .removeWhere(let m): sliding.removeAll { $0 % m == 0 }; array.removeAll { $0 % m == 0 }
        case .removeAll: sliding.removeAll(); array.removeAll()
        }
        guard Array(sliding) == array, sliding.count == array.count, sliding.first == array.first, sliding.last == array.last else {
            Issue.record("after step \(step), \(op): \(sliding) is not \(array)")
            return
        }
    }
}

@Test func slidingArrayKeepsAStackAtItsLimitWithinAQuarterMoreThanTheKeptLines() {
    // I5: a stack at 64 takes a line and drops its oldest on every push.
    var lines = SlidingArray<Int>()
    for n in 0..<10_000 {
        lines.append(n)
        if lines.count > Center.iosStackLimit { lines.removeFirst(lines.count - Center.iosStackLimit) }
        guard lines.storedCount <= Center.iosStackLimit + Center.iosStackLimit / 4 + 16 else {
            Issue.record("after \(n + 1) pushes the stack holds \(lines.storedCount) lines for \(lines.count) kept")
            return
        }
    }
    #expect(Array(lines) == Array((10_000 - 64)..<10_000))
    #expect(lines.indices == 0..<64)
    #expect(lines[0] == 10_000 - 64)
    #expect(lines.suffix(2).map { $0 } == [9998, 9999])
    #expect(lines == SlidingArray(Array((10_000 - 64)..<10_000)))
    #expect(lines != [1, 2, 3])
}
