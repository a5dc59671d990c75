// Every way out of Shade leaves the terminal as it found it: normal stop, exit(), SIGINT/SIGTERM/SIGHUP,
// and crashes. Signal handlers and atexit hooks are C function pointers that cannot capture
// anything, and signals are process-wide, so the state they need is process-wide too: it lives
// here, set up before any handler is installed.
import CNcursesw
import Glibc
import Synchronization

/// The restore path. Idempotent: whichever exit path comes first restores, the others do nothing.
enum TerminalRestore {
    /// True while curses owns the screen (between newterm and endwin).
    static let cursesActive = Atomic<Bool>(false)
    /// Set once `savedTermios` holds the tty settings from before curses started.
    static let termiosSaved = Atomic<Bool>(false)
    // nonisolated(unsafe): written once in `saveTermios()` before `termiosSaved` is published with a
    // releasing store; read only after an acquiring load of it (signal handlers included).
    nonisolated(unsafe) static var savedTermios = termios()

    /// For when endwin cannot run: SGR reset, mouse reporting off, cursor keys back to normal mode,
    /// cursor visible, leave the alternate screen (xterm sequences, what every terminal in use speaks).
    static let resetSequence: StaticString =
        "\u{1B}[0m\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l\u{1B}[?1l\u{1B}>\u{1B}[?25h\u{1B}[?1049l"

    private static let atexitInstalled = Atomic<Bool>(false)

    static func saveTermios() {
        guard !termiosSaved.load(ordering: .acquiring) else { return }
        if tcgetattr(STDIN_FILENO, &savedTermios) == 0 {
            termiosSaved.store(true, ordering: .releasing)
        }
    }

    /// Restore from normal code (stop, atexit): endwin does it all; the raw reset only if it fails.
    static func restore() {
        if cursesActive.exchange(false, ordering: .acquiringAndReleasing), endwin() == ERR {
            restoreWithoutCurses()
        }
        StderrHold.release()
    }

    /// Restore from a signal handler: only async-signal-safe calls (write, tcsetattr, dup2, read).
    static func restoreFromSignal() {
        if cursesActive.exchange(false, ordering: .acquiringAndReleasing) {
            restoreWithoutCurses()
        }
        StderrHold.release()
    }

    private static func restoreWithoutCurses() {
        let sequence = resetSequence
        _ = write(STDOUT_FILENO, sequence.utf8Start, sequence.utf8CodeUnitCount)
        if termiosSaved.load(ordering: .acquiring) {
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedTermios)
        }
    }

    static func installAtexit() {
        guard !atexitInstalled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        atexit { TerminalRestore.restore() }
    }
}

/// While curses owns the terminal, what is written to standard error (a library warning, Swift's
/// "Fatal error: …" just before a crash) would land on the alternate screen and vanish with it, or
/// smear the UI. So standard error goes to an unlinked temporary file meanwhile, and its last 64 KiB
/// are written to the real standard error once the terminal is restored.
enum StderrHold {
    /// The real standard error (a dup), and the file that stands in for it; -1 when not held.
    static let original = Atomic<Int32>(-1)
    static let held = Atomic<Int32>(-1)
    static let replayLimit = 64 * 1024
    // nonisolated(unsafe): allocated once, used only by `release`, which runs once (an atomic
    // exchange guards it) — possibly inside a signal handler, where it must not allocate.
    nonisolated(unsafe) static let copyBuffer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 8)

    /// Only when standard error is the terminal: a redirected one (`2>log`) is left alone.
    static func hold() {
        guard original.load(ordering: .acquiring) < 0, isatty(STDERR_FILENO) == 1 else { return }
        _ = copyBuffer
        var template = Array("/tmp/shade-stderr-XXXXXX".utf8CString)
        let file = mkstemp(&template)
        guard file >= 0 else { return }
        unlink(template)
        let saved = dup(STDERR_FILENO)
        guard saved >= 0, dup2(file, STDERR_FILENO) >= 0 else {
            close(file)
            if saved >= 0 { close(saved) }
            return
        }
        _ = fcntl(saved, F_SETFD, FD_CLOEXEC)
        _ = fcntl(file, F_SETFD, FD_CLOEXEC)
        held.store(file, ordering: .releasing)
        original.store(saved, ordering: .releasing)
    }

    /// Puts standard error back and replays what was written meanwhile. Async-signal-safe.
    static func release() {
        let saved = original.exchange(-1, ordering: .acquiringAndReleasing)
        guard saved >= 0 else { return }
        let file = held.exchange(-1, ordering: .acquiringAndReleasing)
        _ = dup2(saved, STDERR_FILENO)
        close(saved)
        guard file >= 0 else { return }
        let end = lseek(file, 0, SEEK_END)
        var offset = max(0, end - off_t(replayLimit))
        while offset < end {
            let count = pread(file, copyBuffer, 4096, offset)
            guard count > 0 else { break }
            var written = 0
            while written < count {
                let step = write(STDERR_FILENO, copyBuffer + written, count - written)
                guard step > 0 else { break }
                written += step
            }
            offset += off_t(count)
        }
        close(file)
    }
}

/// SIGINT, SIGTERM and SIGHUP as something the run loop polls, rather than an exit from inside a
/// handler: the loop can flush the journal, restore the terminal and exit with 128+signal.
///
/// Usage: add `wakeDescriptor` to the poll() set; when it is readable (or poll returns EINTR),
/// call `takePending()`. It becomes readable on a terminal resize too (call `Terminal.readKeys()`).
/// A second signal before the loop took the first one restores the terminal and exits at once
/// (128+signal), so a stuck loop can still be stopped.
public enum SignalWatch {
    static let pending = Atomic<Int32>(0)
    static let wakeWrite = Atomic<Int32>(-1)
    static let wakeRead = Atomic<Int32>(-1)
    private static let installed = Atomic<Bool>(false)

    /// Signals that end Shade in an orderly way.
    public static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the handlers (once). Install before curses starts: ncurses then leaves SIGINT and
    /// SIGTERM to us rather than installing its own exiting handlers.
    public static func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            wakeRead.store(fds[0], ordering: .releasing)
            wakeWrite.store(fds[1], ordering: .releasing)
        }
        for signo in terminationSignals {
            // A signal ignored when Shade started (nohup, a shell's background job) stays ignored.
            var previous = sigaction()
            sigaction(signo, nil, &previous)
            if isIgnored(previous) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = onTerminationSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signo, &action, nil)
        }
    }

    /// Readable when a signal is pending or the terminal was resized; -1 if the pipe could not be made.
    public static var wakeDescriptor: Int32 { wakeRead.load(ordering: .acquiring) }

    /// The signal that arrived since the last call, if any. Drains the wake descriptor.
    public static func takePending() -> Int32? {
        let fd = wakeRead.load(ordering: .acquiring)
        if fd >= 0 {
            var sink = [UInt8](repeating: 0, count: 64)
            while read(fd, &sink, sink.count) > 0 {}
        }
        let signo = pending.exchange(0, ordering: .acquiringAndReleasing)
        return signo == 0 ? nil : signo
    }

    /// The conventional exit status for a process ended by `signal`.
    public static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }

    /// Async-signal-safe: a write(2) of one byte; a full pipe already means "wake up".
    static func wake() {
        let fd = wakeWrite.load(ordering: .relaxed)
        guard fd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }
}

/// SIG_IGN is the handler value 1 (and SIG_DFL 0); the macros do not import.
func isIgnored(_ action: sigaction) -> Bool {
    action.sa_flags & SA_SIGINFO == 0 && unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1
}

private func onTerminationSignal(_ signo: Int32) {
    let savedErrno = errno
    if SignalWatch.pending.exchange(signo, ordering: .acquiringAndReleasing) != 0 {
        TerminalRestore.restoreFromSignal()
        _exit(SignalWatch.exitStatus(for: signo))
    }
    SignalWatch.wake()
    errno = savedErrno
}

/// Crashes: put the tty back, let whoever had the signal before report it (Swift's backtracer), then
/// die of the signal by its default action, with the usual status and core dump.
enum CrashRestore {
    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT]
    private static let installed = Atomic<Bool>(false)
    // nonisolated(unsafe): filled for every fatal signal before its handler is installed, never
    // written again; handlers read their own entry. Indexed by signal number.
    nonisolated(unsafe) static var previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))

    static func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Touch the globals the handler reads so their lazy initialisation never runs inside it.
        _ = TerminalRestore.resetSequence
        _ = TerminalRestore.cursesActive.load(ordering: .relaxed)
        let previous = previousActions
        for signo in fatalSignals {
            sigaction(signo, nil, previous + Int(signo))
            if isIgnored(previous[Int(signo)]) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = onFatalSignal
            sigemptyset(&action.sa_mask)
            // SA_ONSTACK: a stack overflow is a SIGSEGV with no stack left but the alternate one.
            action.sa_flags = SA_SIGINFO | Int32(SA_ONSTACK)
            sigaction(signo, &action, nil)
        }
    }
}

private func onFatalSignal(_ signo: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    TerminalRestore.restoreFromSignal()
    // The previous handler (Swift's backtracer) runs with the real details of the fault, its report
    // landing on the restored screen. It returns when done, expecting a fault to repeat, which a
    // signal sent with kill or raise does not: the process would live on. So the default action is
    // installed next, and the signal sent again unless returning repeats the fault.
    let previous = CrashRestore.previousActions[Int(signo)]
    if previous.sa_flags & SA_SIGINFO != 0 {
        previous.__sigaction_handler.sa_sigaction?(signo, info, context)
    } else if let handler = previous.__sigaction_handler.sa_handler,
              unsafeBitCast(handler, to: Int.self) > 1 {   // neither SIG_DFL (0) nor SIG_IGN (1)
        handler(signo)
    }
    var fallback = sigaction()
    fallback.__sigaction_handler.sa_handler = nil   // SIG_DFL
    sigemptyset(&fallback.sa_mask)
    sigaction(signo, &fallback, nil)
    let sentByProcess = (info?.pointee.si_code ?? 0) <= 0
    // A trap (SIGTRAP after int3) resumes past itself, SIGQUIT is never a fault: send those again too.
    if sentByProcess || signo == SIGTRAP || signo == SIGQUIT { raise(signo) }
}
