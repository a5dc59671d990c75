// What every fuzz target shares: the libFuzzer driver, and the checks that turn a wrong output into a
// crash libFuzzer reports with its input (a raw control byte where Shade writes text, a broken invariant).
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ShadeCore

/// libFuzzer's callback: one input, 0 to go on.
public typealias FuzzEntry = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzEntry) -> Int32

public enum Fuzz {
    /// Runs libFuzzer over the command line. SwiftPM links an executable's `main` to its top-level code,
    /// so each target's main.swift starts the driver itself; where libFuzzer's own `main` wins instead,
    /// it calls the same `LLVMFuzzerTestOneInput`.
    public static func main(_ entry: FuzzEntry) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, entry))
    }

    public static func bytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let data, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    /// Stops the run as a crash, saying why: libFuzzer saves the input that did it.
    public static func fail(_ message: String) -> Never {
        fputs("fuzz: \(message)\n", stderr)
        abort()
    }

    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    /// Text Shade writes (a screen line, a report, JSON) must hold no raw control character: nothing below
    /// 0x20 but a newline, no DEL, no C1 (UTF-8 C2 80–C2 9F).
    public static func expectNoControlBytes(_ text: String, _ what: @autoclosure () -> String) {
        expectNoControlBytes(Array(text.utf8), what())
    }

    public static func expectNoControlBytes(_ bytes: [UInt8], _ what: @autoclosure () -> String, allowingCRLF: Bool = false) {
        for (i, b) in bytes.enumerated() {
            if b == 0x0A { continue }
            if allowingCRLF && b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { continue }
            let c1 = b == 0xC2 && i + 1 < bytes.count && (0x80...0x9F).contains(bytes[i + 1])
            if b < 0x20 || b == 0x7F || c1 {
                let context = String(decoding: bytes[max(0, i - 40)..<min(bytes.count, i + 40)], as: UTF8.self)
                fail("raw control byte 0x\(String(c1 ? bytes[i + 1] : b, radix: 16)) at byte \(i) of \(what()): …\(context.debugDescription)…")
            }
        }
    }
}
