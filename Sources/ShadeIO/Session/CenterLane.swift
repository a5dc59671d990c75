@preconcurrency import Glibc
import ShadeCore

/// The live session's centers, fed on a thread of their own: while the run loop reads, parses,
/// records and answers the next requests of a round, this thread applies the ones before to the
/// three centers (about half of what a live push costs). The run loop waits for it (`wait`) at the
/// end of each round and before anything reads or changes a center, so nothing outside a round
/// can tell: a push is applied before anyone looks, and in the order it was taken.
///
/// The thread touches `feeds` only between a `submit` and the `wait` that follows it; the run loop
/// only after a `wait`. The lock hands `feeds` over between them.
final class CenterLane: @unchecked Sendable {
    // @unchecked: `feeds` is handed over by the lock as said above; the rest is read and written
    // with `mutex` held.

    /// What one push or rejection asks of the centers, in order.
    struct Job: Sendable {
        var outcome: Intake.Outcome
        var refusal: PushRefusal?
        /// Its arrival time and the offline transitions due before it (a replay's `--offline`).
        var time: Int64?
        var transitions: [OfflineTimeline.Transition]
    }

    /// What it did: each platform's effect, and each center's newest rejection when it counted one
    /// (in `Platform.allCases` order).
    struct Done: Sendable {
        var effects: [Platform: Arrival.Effect]
        var rejections: [ErrorEntry?]
    }

    /// The centers in `Platform.allCases` order.
    var feeds: [Center]

    private var jobs: [Job] = []
    private var done: [Done] = []
    /// Jobs submitted and not yet done.
    private var pending = 0
    private var sleeping = false
    private var stopping = false
    private var thread: pthread_t?
    /// No thread could be had: each job is done as it is submitted.
    private var inline = false
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let work = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let idle = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(_ feeds: [Center]) {
        self.feeds = feeds
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(work, nil)
        pthread_cond_init(idle, nil)
    }

    deinit {
        pthread_cond_destroy(idle)
        pthread_cond_destroy(work)
        pthread_mutex_destroy(mutex)
        idle.deallocate()
        work.deallocate()
        mutex.deallocate()
    }

    /// Queues a job; the thread starts with the first.
    func submit(_ job: Job) {
        if thread == nil && !inline {
            // The thread holds the lane until `stop`: a session ends with `shutdown` or its deinit.
            if let started = SystemThread.start({ [self] in self.loop() }) { thread = started } else { inline = true }
        }
        if inline {
            done.append(Self.feed(&feeds, job))
            return
        }
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pending += 1
        if sleeping { pthread_cond_signal(work) }
        pthread_mutex_unlock(mutex)
    }

    /// Waits until every job submitted is done; returns what each did, in order.
    func wait() -> [Done] {
        guard !inline else {
            defer { done.removeAll(keepingCapacity: true) }
            return done
        }
        pthread_mutex_lock(mutex)
        while pending > 0 { pthread_cond_wait(idle, mutex) }
        let finished = done
        done.removeAll(keepingCapacity: true)
        pthread_mutex_unlock(mutex)
        return finished
    }

    /// Ends the thread once the jobs queued are done.
    func stop() {
        guard let thread else { return }
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_signal(work)
        pthread_mutex_unlock(mutex)
        pthread_join(thread, nil)
        self.thread = nil
    }

    private func loop() {
        var taken: [Job] = []
        var results: [Done] = []
        pthread_mutex_lock(mutex)
        while true {
            while jobs.isEmpty {
                if stopping {
                    pthread_mutex_unlock(mutex)
                    return
                }
                sleeping = true
                pthread_cond_wait(work, mutex)
                sleeping = false
            }
            swap(&taken, &jobs)
            pthread_mutex_unlock(mutex)
            for job in taken { results.append(Self.feed(&feeds, job)) }
            let count = taken.count
            taken.removeAll(keepingCapacity: true)
            pthread_mutex_lock(mutex)
            done += results
            results.removeAll(keepingCapacity: true)
            pending -= count
            if pending == 0 { pthread_cond_signal(idle) }
        }
    }

    /// Counters that tell what a push did to a center, compared before and after.
    private struct Tally: Equatable {
        var silent, calls, rejected, elsewhere: Int
        var offline: Bool

        init(_ center: Center) {
            silent = center.silent
            calls = center.calls
            rejected = center.rejected
            elsewhere = center.elsewhere
            offline = center.offline != nil
        }
    }

    /// Feeds every center. A refused push is received and rejected on the platforms it reaches and
    /// `elsewhere` on the others (DESIGN.md).
    static func feed(_ feeds: inout [Center], _ job: Job) -> Done {
        for transition in job.transitions { for index in feeds.indices { feeds[index].apply(transition) } }
        var done = Done(effects: [:], rejections: [])
        done.rejections.reserveCapacity(feeds.count)
        for (index, platform) in Platform.allCases.enumerated() {
            let before = Tally(feeds[index])
            switch (job.outcome, job.refusal) {
            case (.push(let push), let refusal?) where push.reaches(platform):
                feeds[index].reject(Rejection(source: push.source, reason: refusal.message))
            case (.push(let push), _):
                feeds[index].receive(push, at: job.time)
            case (.rejected(let rejection), _):
                feeds[index].reject(rejection)
            }
            let after = Tally(feeds[index])
            // One outcome is at most one rejection per center: the newest, listed in `errors` or not.
            let newest = after.rejected > before.rejected ? feeds[index].lastRejection : nil
            done.rejections.append(newest)
            done.effects[platform] = after.rejected > before.rejected ? .rejected(newest?.reason ?? "")
                : after.silent > before.silent ? .silent
                : after.calls > before.calls ? .call
                : after.elsewhere > before.elsewhere ? .elsewhere
                : after.offline ? .waiting
                : .shown
        }
        return done
    }
}
