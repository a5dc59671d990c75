@preconcurrency import Glibc

/// One producer, several workers: every element the producer emits reaches every worker, in the
/// order emitted, and each worker folds them into a state of its own. The producer runs on the
/// calling thread; each worker on a thread of its own.
///
/// Why: reading and parsing a recording and applying it to each profile's center are independent
/// once the pushes are numbered, so on a machine with more than one core they overlap instead of
/// taking turns. Elements travel in batches (one lock and one wake-up per batch, not per push), and
/// at most `depth` batches wait for any worker, so memory stays bounded however long the input is
/// and however slow a worker is.
///
/// A batch a worker has folded goes back to the producer, which frees it: what a push holds was
/// allocated on the producer's thread, and glibc's malloc takes the allocating thread's arena lock
/// to free a block from another thread. Freed by the workers, a million pushes made 50k futex calls
/// on `state`, 90% of them that lock (DECISIONS.md 98). The shade executable now runs on jemalloc,
/// where either way costs the same (DECISIONS.md 147); the give-back stays for any build on glibc's.
public enum Fanout {
    public static let batchSize = 256
    public static let depth = 4

    /// Runs `produce` here, feeding what it emits to one worker per state, and returns the states
    /// when every worker has taken every element. When `produce` throws, the workers still finish
    /// what was emitted before the error is rethrown, so no thread outlives the call. `threaded: false`
    /// folds every batch on the calling thread, as happens when no thread can be had.
    public static func run<State: Sendable, Element: Sendable, Failure: Error>(
        _ states: [State], threaded: Bool = true,
        produce: (_ emit: (Element) -> Void) throws(Failure) -> Void,
        consume: @escaping @Sendable (inout State, Element) -> Void
    ) throws(Failure) -> [State] {
        let workers = states.map { Worker(state: $0, consume: consume) }
        for worker in workers { worker.start(threaded: threaded) }
        var batch: [Element] = []
        batch.reserveCapacity(batchSize)
        func publish() {
            guard !batch.isEmpty else { return }
            for worker in workers { worker.take(batch) }   // one buffer, shared: copy on write
            batch.removeAll(keepingCapacity: true)
            for worker in workers { worker.queue.dropFolded() }
        }
        var failure: Failure?
        do {
            try produce { element in
                batch.append(element)
                if batch.count == batchSize { publish() }
            }
        } catch {
            failure = error
        }
        publish()
        for worker in workers { worker.queue.close() }
        let finished = workers.map { $0.join() }
        if let failure { throw failure }
        return finished
    }

    /// A worker's thread, its state and its queue.
    private final class Worker<State: Sendable, Element: Sendable>: @unchecked Sendable {
        // @unchecked: `state` is touched only by the worker's thread between `start` and the end of
        // its loop, and by the caller only after `join` has seen the thread end.
        var state: State
        let consume: @Sendable (inout State, Element) -> Void
        let queue = BatchQueue<Element>(depth: Fanout.depth)
        private var thread = pthread_t()

        init(state: State, consume: @escaping @Sendable (inout State, Element) -> Void) {
            self.state = state
            self.consume = consume
        }

        func start(threaded: Bool) {
            guard threaded, let thread = SystemThread.start({ self.loop() }) else {
                // No thread to be had: each batch is folded on the caller's thread as it comes, in the
                // same order, so memory stays bounded all the same.
                inline = true
                return
            }
            self.thread = thread
        }

        private var inline = false

        /// Hands a batch to the worker's thread, or folds it here when there is none.
        func take(_ batch: [Element]) {
            guard inline else { return queue.put(batch) }
            for element in batch { consume(&state, element) }
        }

        private func loop() {
            while let batch = queue.take() {
                for element in batch { consume(&state, element) }
                queue.giveBack(batch)
            }
        }

        func join() -> State {
            if !inline { pthread_join(thread, nil) }
            return state
        }
    }
}

/// A bounded queue of batches between one producer and one consumer: `put` waits while `depth`
/// batches are waiting, `take` waits while none is, and returns nil once the queue is closed and
/// empty. The consumer gives each batch back when it has folded it, and the producer drops those
/// (`dropFolded`), so that a batch's memory is freed on the thread that allocated it.
final class BatchQueue<Element: Sendable>: @unchecked Sendable {
    // @unchecked: every field below is read and written with `mutex` held.
    private var batches: [[Element]] = []
    /// Batches folded and given back, for the producer to free.
    private var folded: [[Element]] = []
    private var head = 0
    private var closed = false
    private let depth: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(depth: Int) {
        self.depth = depth
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    private var waiting: Int { batches.count - head }

    func put(_ batch: [Element]) {
        pthread_mutex_lock(mutex)
        while waiting >= depth { pthread_cond_wait(changed, mutex) }
        batches.append(batch)
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// The consumer is done with `batch`: it waits here for the producer to free it.
    func giveBack(_ batch: consuming [Element]) {
        pthread_mutex_lock(mutex)
        folded.append(batch)
        pthread_mutex_unlock(mutex)
    }

    /// Frees the batches given back, on the calling (the producer's) thread. At most `depth + 1` wait:
    /// the producer calls this after each `put`.
    func dropFolded() {
        pthread_mutex_lock(mutex)
        var done: [[Element]] = []
        swap(&done, &folded)
        pthread_mutex_unlock(mutex)
        // `done` goes here, outside the lock.
        _ = consume done
    }

    func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    func take() -> [Element]? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while waiting == 0 {
            if closed { return nil }
            pthread_cond_wait(changed, mutex)
        }
        let batch = batches[head]
        batches[head] = []
        head += 1
        if head == batches.count {
            batches.removeAll(keepingCapacity: true)
            head = 0
        }
        pthread_cond_broadcast(changed)
        return batch
    }
}

/// A POSIX thread running one closure; `pthread_join` waits for it.
enum SystemThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    static func start(_ run: @escaping @Sendable () -> Void) -> pthread_t? {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Body(run)).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        return thread
    }
}
