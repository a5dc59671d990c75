import Testing
@testable import ShadeIO

// A replay's schedule keeps its entries' times on disk (OffsetTable): two pages in memory whatever the
// recording's length, every offset read back as it was written, and a seek back that halves the table.

private let page = OffsetTable.pageEntries

/// Offsets as a recording gives them: mostly rising, with runs of equal ones.
private func offsets(_ count: Int) -> [Int64] {
    (0..<count).map { Int64($0 / 3) * 7 }
}

private func table(_ values: [Int64], makeFile: @escaping () -> Int32? = { TemporaryFile.unlinked(prefix: "shade-test") }) -> OffsetTable {
    let table = OffsetTable(makeFile: makeFile)
    for value in values { table.append(value) }
    return table
}

@Test(arguments: [0, 1, page - 1, page, page + 1, 3 * page + 17])
func offsetsReadBackAsTheyWereWritten(count: Int) {
    let values = offsets(count)
    let table = table(values)
    #expect(table.count == count)
    #expect(Array(table) == values)
    // Out of order too: each page is read back again from the file.
    for index in stride(from: count - 1, through: 0, by: -(page / 3 + 1)) {
        #expect(table[index] == values[index])
    }
    #expect(table.last == values.last)
}

@Test func aScheduleHoldsTwoPagesOfOffsetsWhateverTheRecordingsLength() {
    let values = offsets(20 * page + 5)
    let table = table(values)
    #expect(table.pagesInMemory == 1)   // the last page, not full
    var sum: Int64 = 0
    for index in table.indices { sum &+= table[index] }
    #expect(sum == values.reduce(0, &+))
    #expect(table.pagesInMemory == 2)   // and the page last read back
}

@Test func withoutATemporaryFileTheOffsetsStayInMemoryAndNoneIsLost() {
    let values = offsets(3 * page + 2)
    let table = table(values, makeFile: { nil })
    #expect(Array(table) == values)
    #expect(table.pagesInMemory == 3 + 1)   // three full pages held and the last (what is read shares them)
}

@Test(arguments: [-1.0, 0, 6.5, 7, 700, 20_000, 1e12])
func firstIndexLaterThanATimeIsTheFirstLaterEntry(time: Double) {
    let values = offsets(5 * page + 3)
    let table = table(values)
    #expect(table.firstIndex(laterThan: time) == (values.firstIndex { Double($0) > time } ?? values.count))
}

@Test func anInstantScheduleStoresNoOffsets() {
    let table = OffsetTable(zeros: 3 * page)
    #expect(table.count == 3 * page)
    #expect(table.allSatisfy { $0 == 0 })
    #expect(table.pagesInMemory == 0)
}

@Test func seekingBackInAScheduleLongerThanAPageFindsTheFirstEntryAfterTheNewTime() {
    // An entry every 10 ms over three pages; seek back from the end to 100 s.
    let count = 3 * page
    var schedule = ReplaySchedule(times: (0..<count).map { Int64($0) * 10 })
    #expect(schedule.due(at: 0) == 0..<1)
    #expect(schedule.due(at: Int64(count) * 10) == 1..<count)
    schedule.seek(by: -(Int64(count) * 10 - 100_000), at: Int64(count) * 10)
    #expect(schedule.position == 10_001)   // the entries at 0…100,000 ms stay played
    #expect(schedule.elapsed(at: Int64(count) * 10) == 100_000)
}
