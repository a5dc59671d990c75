// A replay's schedule times, one for each entry, held on disk rather than in memory.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The schedule time of each entry of a replay (`ReplaySchedule.offsets`), in entry order. They never
/// decrease. A replay must reach any of them again: seeking back, the demo's loop. Yet the memory of a
/// replay must not grow with its recording: eight bytes an entry made 80 MB for ten million pushes.
/// So the table is written a page at a time to an unlinked temporary file and read back a page at a
/// time. It holds at most two pages, the one being filled and the one last read: 64 KiB, whatever the
/// recording's length. A page the file cannot take stays in memory instead: no temporary directory,
/// a full disk. Then nothing is lost, and the replay only costs more memory.
///
/// One thread uses a table: reading one moves its cache. It is built once, by `append`, and then
/// read; `ReplaySchedule` reads it on the run loop.
public final class OffsetTable: RandomAccessCollection {
    /// Entries a page: 32 KiB.
    static let pageEntries = 4096
    private static let pageBytes = pageEntries * MemoryLayout<Int64>.stride

    /// Every entry is 0 (`--instant`): nothing is stored.
    private let allZero: Bool
    private var total = 0
    /// The last page, not yet full, or being filled.
    private var filling: [Int64] = []
    /// Where the full pages go: an unlinked temporary file, made at the first full page; -1 before
    /// that, and when none could be made.
    private var file: Int32 = -1
    private var triedFile = false
    /// Full pages the file could not take, by number.
    private var heldPages: [Int: [Int64]] = [:]
    /// The full page last read back from the file.
    private var cachedPage = -1
    private var cache: [Int64] = []
    private let makeFile: () -> Int32?

    convenience init() {
        self.init(makeFile: { TemporaryFile.unlinked(prefix: "shade-replay") })
    }

    /// `makeFile` gives the file the pages go to (nil: none can be made).
    init(makeFile: @escaping () -> Int32?) {
        allZero = false
        self.makeFile = makeFile
    }

    /// `count` entries, each 0.
    init(zeros count: Int) {
        allZero = true
        total = count
        makeFile = { nil }
    }

    deinit {
        if file >= 0 { close(file) }
    }

    /// Adds the next entry's offset (at least the one before it).
    func append(_ offset: Int64) {
        precondition(!allZero, "a table of zeros takes no entries")
        filling.append(offset)
        total += 1
        if filling.count == Self.pageEntries {
            store(page: total / Self.pageEntries - 1)
            filling.removeAll(keepingCapacity: true)
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { total }

    public subscript(index: Int) -> Int64 {
        precondition(index >= 0 && index < total, "offset \(index) outside the table's \(total)")
        if allZero { return 0 }
        let page = index / Self.pageEntries
        let within = index % Self.pageEntries
        if page == total / Self.pageEntries { return filling[within] }
        if page != cachedPage { load(page: page) }
        return cache[within]
    }

    /// The first entry whose offset is later than `time`, or `count`. The offsets never decrease, so
    /// this halves the table rather than reading it through: a seek back reads a few pages.
    public func firstIndex(laterThan time: Double) -> Int {
        var low = 0
        var high = total
        while low < high {
            let middle = low + (high - low) / 2
            if Double(self[middle]) > time { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Pages kept in memory now: what the tests hold to the bound. (The cache shares a held page's
    /// storage, so it counts only when it was read from the file.)
    var pagesInMemory: Int {
        (filling.isEmpty ? 0 : 1) + heldPages.count + (cachedPage >= 0 && heldPages[cachedPage] == nil ? 1 : 0)
    }

    private func store(page: Int) {
        if !triedFile {
            triedFile = true
            file = makeFile() ?? -1
        }
        if file >= 0 {
            let written = filling.withUnsafeBytes { pwrite(file, $0.baseAddress!, Self.pageBytes, off_t(page * Self.pageBytes)) }
            if written == Self.pageBytes { return }
        }
        heldPages[page] = filling
    }

    private func load(page: Int) {
        cachedPage = page
        if let held = heldPages[page] {
            cache = held
            return
        }
        cache = Array(unsafeUninitializedCapacity: Self.pageEntries) { buffer, initialized in
            var done = 0
            while done < Self.pageBytes {
                let count = pread(file, UnsafeMutableRawPointer(buffer.baseAddress!) + done, Self.pageBytes - done,
                                  off_t(page * Self.pageBytes + done))
                if count < 0 && errno == EINTR { continue }
                // The file was written whole and is this process's alone: a short or failed read is a
                // broken disk, where nothing better than stopping is left to do.
                precondition(count > 0, "the replay's schedule file could not be read back: \(String(cString: strerror(errno)))")
                done += count
            }
            initialized = Self.pageEntries
        }
    }
}

extension OffsetTable: Equatable {
    public static func == (a: OffsetTable, b: OffsetTable) -> Bool { a === b || a.elementsEqual(b) }
}
