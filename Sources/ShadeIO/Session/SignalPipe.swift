// SIGINT, SIGTERM and SIGHUP as readable bytes: the self-pipe trick, so the poll() loop sees a signal as one
// more ready descriptor and ends on its own thread, after the journal is flushed.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Synchronization

public final class SignalPipe {
    /// The descriptor the loop watches (nonblocking).
    public let readFD: Int32
    private let writeFD: Int32
    private let signals: [Int32]

    /// Where the handler writes. A signal handler can reach no context but globals; an atomic load is
    /// async-signal-safe, and only one `SignalPipe` is installed at a time.
    private static let target = Atomic<Int32>(-1)

    /// Installs handlers for `signals` until `restore()` (or deinit) puts back the default action.
    /// SIGHUP (the terminal or the session went away) ends Shade as SIGTERM does: journal flushed,
    /// socket removed (an attack showed it: it killed a headless Shade without either).
    public static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    public init(signals: [Int32] = SignalPipe.terminationSignals) throws(SocketError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SocketError("cannot create a pipe for signals: \(String(cString: strerror(errno)))") }
        readFD = fds[0]
        writeFD = fds[1]
        self.signals = signals
        Descriptor.makeNonblocking(readFD)
        Descriptor.makeNonblocking(writeFD)   // a full pipe drops the byte instead of blocking the handler
        Self.target.store(writeFD, ordering: .sequentiallyConsistent)
        // A process inherits its parent's blocked signals (a thread pool that spawns it may block them
        // all): unblocked here, or SIGTERM would wait forever.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signo in signals { sigaddset(&unblock, signo) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for signo in signals {
            signal(signo) { received in
                let fd = SignalPipe.target.load(ordering: .sequentiallyConsistent)
                guard fd >= 0 else { return }
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(fd, &byte, 1)
                errno = saved
            }
        }
    }

    deinit {
        restore()
        close(readFD)
        close(writeFD)
    }

    /// The default action again for every signal this pipe took.
    public func restore() {
        for signo in signals { signal(signo, SIG_DFL) }
        _ = Self.target.compareExchange(expected: writeFD, desired: -1, ordering: .sequentiallyConsistent)
    }

    /// The signals received since the last call, oldest first.
    public func drain() -> [Int32] {
        var received: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress!, $0.count) }
            if count > 0 {
                received += buffer[0..<count].map { Int32($0) }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return received
        }
    }
}
