// A scratch file no one else can open and nothing has to clean up.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

enum TemporaryFile {
    /// A new file in `$TMPDIR` (or /tmp), already unlinked: it goes when its descriptor is closed,
    /// or with the process, whatever way the process ends. nil when none can be made.
    static func unlinked(prefix: String) -> Int32? {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/" + prefix + "-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)   // not handed on to a program run from here
        return fd
    }
}
