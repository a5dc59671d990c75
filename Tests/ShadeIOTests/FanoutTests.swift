import Glibc
import Synchronization
import Testing
import ShadeIO

/// `Fanout` carries `state`, `snapshot` and `--platform all` across the cores: each profile's
/// center must see exactly the pushes a single thread would have given it, in the same order.

private struct Failure: Error, Equatable { let after: Int }

@Test(arguments: [0, 1, Fanout.batchSize - 1, Fanout.batchSize, Fanout.batchSize * 9 + 7])
func fanoutGivesEveryWorkerEveryElementInOrder(count: Int) {
    let states = Fanout.run([[Int]](repeating: [], count: 3), produce: { (emit: (Int) -> Void) in
        for n in 0..<count { emit(n) }
    }, consume: { seen, n in seen.append(n) })
    #expect(states == [[Int]](repeating: Array(0..<count), count: 3))
}

@Test(arguments: [true, false])
func fanoutFoldsTheSameStatesWithOrWithoutThreads(threaded: Bool) {
    // Without a thread (none could be had) each batch is folded as it is published.
    let emitted = Atomic<Int>(0)
    let states = Fanout.run([[Int]](repeating: [], count: 2), threaded: threaded, produce: { (emit: (Int) -> Void) in
        for n in 0..<(Fanout.batchSize * 6 + 3) {
            emitted.add(1, ordering: .relaxed)
            emit(n)
        }
    }, consume: { seen, n in
        // Never more than a batch and the queue ahead, threads or not.
        if emitted.load(ordering: .relaxed) - seen.count > (Fanout.depth + 2) * Fanout.batchSize { seen.append(-1) }
        seen.append(n)
    })
    #expect(states == [[Int]](repeating: Array(0..<(Fanout.batchSize * 6 + 3)), count: 2))
}

@Test func fanoutKeepsEachWorkersOwnState() {
    // Three folds over the same stream, as three profiles' centers are.
    let states = Fanout.run([0, 1, 2], produce: { (emit: (Int) -> Void) in
        for n in 1...1000 { emit(n) }
    }, consume: { state, n in state = state &* 31 &+ n })
    let expected: [Int] = [0, 1, 2].map { (seed: Int) -> Int in (1...1000).reduce(seed) { $0 &* 31 &+ $1 } }
    #expect(states == expected)
}

@Test func fanoutRethrowsTheProducersErrorAfterTheWorkersTookWhatCameBefore() {
    let seen = Mutex<[Int]>([])
    #expect(throws: Failure(after: 600)) {
        _ = try Fanout.run([0], produce: { (emit: (Int) -> Void) throws(Failure) in
            for n in 0..<600 { emit(n) }
            throw Failure(after: 600)
        }, consume: { _, n in seen.withLock { $0.append(n) } })
    }
    #expect(seen.withLock { $0 } == Array(0..<600))
}

@Test func fanoutHoldsAtMostDepthBatchesAheadOfTheSlowestWorker() {
    // The producer cannot run ahead of a slow worker by more than what the queue holds plus the
    // batch being filled and the one being taken: memory stays bounded however long the input.
    let emitted = Atomic<Int>(0)
    let worstLead = Atomic<Int>(0)
    let total = Fanout.batchSize * 40
    _ = Fanout.run([0, 0], produce: { (emit: (Int) -> Void) in
        for n in 0..<total {
            emitted.add(1, ordering: .relaxed)
            emit(n)
        }
    }, consume: { taken, n in
        taken += 1
        let lead = emitted.load(ordering: .relaxed) - taken
        if lead > worstLead.load(ordering: .relaxed) { worstLead.store(lead, ordering: .relaxed) }
        if n % 64 == 0 { for _ in 0..<2000 { _ = emitted.load(ordering: .relaxed) } }   // slower than the producer
    })
    #expect(worstLead.load(ordering: .relaxed) <= (Fanout.depth + 2) * Fanout.batchSize)
}

/// The threads that let elements go.
private final class FreeLog: Sendable {
    let threads = Mutex<[pthread_t]>([])
}

/// An element that notes which thread let it go.
private final class FreedOn: Sendable {
    let log: FreeLog
    init(_ log: FreeLog) { self.log = log }
    deinit { log.threads.withLock { $0.append(pthread_self()) } }
}

@Test func fanoutFreesEveryBatchOnTheProducersThread() {
    // What a push holds was allocated where it was parsed; freed on a worker's thread, each block
    // takes the producer's malloc arena lock, which the producer is taking to allocate the next.
    let log = FreeLog()
    let total = Fanout.batchSize * 12 + 5
    let counts = Fanout.run([0, 0, 0], produce: { (emit: (FreedOn) -> Void) in
        for _ in 0..<total { emit(FreedOn(log)) }
    }, consume: { count, _ in count += 1 })
    #expect(counts == [total, total, total])
    let freed = log.threads.withLock { $0 }
    #expect(freed.count == total)
    #expect(freed.filter { $0 != pthread_self() }.count == 0)
}
