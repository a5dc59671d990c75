/// An array whose front can be dropped in constant time, for what a device keeps newest-last and
/// trims from the front: an iOS stack's 64 notifications (I5), a MessagingStyle's 25 messages (A1).
///
/// Why: trimming an `Array` from the front moves every kept element. A stack at its limit does that
/// on every push (64 lines, about 9 KB each time), which was an eighth of `shade state --platform
/// all`. Here dropped elements only move a marker; the kept ones are moved down once 16 have been
/// dropped and at least a quarter as many as are kept: a push moves 4 lines on average instead of 64,
/// and the storage holds at most a quarter more than is kept, plus 16.
///
/// Indices run from 0 to `count`, as an array's do.
public struct SlidingArray<Element> {
    private var storage: [Element]
    /// How many of `storage`'s first elements are dropped.
    private var head = 0

    public init() { storage = [] }
    public init<S: Sequence>(_ elements: S) where S.Element == Element { storage = Array(elements) }

    /// Elements held, dropped ones included (at most `count` and a quarter, plus 16).
    var storedCount: Int { storage.count }

    /// Drops the dropped elements for good once they are 16 and a quarter of the kept ones.
    private mutating func compactIfSparse() {
        guard head >= 16, head * 4 >= storage.count - head else { return }
        storage.removeFirst(head)
        head = 0
    }
}

extension SlidingArray: RandomAccessCollection, MutableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count - head }

    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "SlidingArray index out of range")
            return storage[head + position]
        }
        _modify {
            precondition(position >= 0 && position < count, "SlidingArray index out of range")
            yield &storage[head + position]
        }
    }
}

extension SlidingArray: RangeReplaceableCollection {
    public mutating func replaceSubrange<C: Collection>(_ bounds: Range<Int>, with elements: C) where C.Element == Element {
        precondition(bounds.lowerBound >= 0 && bounds.upperBound <= count, "SlidingArray range out of bounds")
        storage.replaceSubrange((head + bounds.lowerBound)..<(head + bounds.upperBound), with: elements)
    }

    /// Takes the element (`consuming`): a caller's last use of it moves it in, not a copy of its strings.
    public mutating func append(_ element: consuming Element) { storage.append(element) }

    public mutating func removeFirst(_ k: Int) {
        precondition(k >= 0 && k <= count, "SlidingArray cannot remove more elements than it holds")
        guard k < count else { return removeAll(keepingCapacity: true) }
        head += k
        compactIfSparse()
    }

    @discardableResult
    public mutating func removeFirst() -> Element {
        let first = self[0]
        removeFirst(1)
        return first
    }

    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        storage.removeAll(keepingCapacity: keepCapacity)
        head = 0
    }
}

extension SlidingArray: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { storage = Array(elements) }
}

extension SlidingArray: Equatable where Element: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.elementsEqual(b) }
}

extension SlidingArray: Sendable where Element: Sendable {}

extension SlidingArray: CustomStringConvertible {
    public var description: String { Array(self).description }
}
