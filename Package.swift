// swift-tools-version:6.0
import PackageDescription

/// Release builds of Shade's own code skip the run-time exclusivity checks (`swift_beginAccess` on
/// every access to a class's stored property: 4% of an HTTP request's instructions); debug builds,
/// and so every test, and the fuzz builds keep them (DECISIONS.md 104).
let shadeSettings: [SwiftSetting] = Context.environment["SHADE_FUZZ"] == "1" ? []
    : [.unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "Shade",
    products: [
        .executable(name: "shade", targets: ["shade"]),
    ],
    targets: [
        // Pure: payload bytes → Push → Center → CenterState. No terminal, no socket.
        .target(name: "ShadeCore", swiftSettings: shadeSettings),
        // Pure: CenterState + UI state → Screen (a grid of cells); key reducer.
        .target(name: "ShadeUI", dependencies: ["ShadeCore"], swiftSettings: shadeSettings),
        // Sockets, TLS, HTTP/1.1 and HTTP/2 and NDJSON framing, journal, replay timing.
        .target(name: "ShadeIO", dependencies: ["ShadeCore", "COpenSSL", "CNghttp2", "CZlib"], swiftSettings: shadeSettings),
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CNghttp2", providers: [.apt(["libnghttp2-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The executable's allocator (DECISIONS.md 146): linked by the executable alone, never by a library.
        .systemLibrary(name: "CJemalloc", providers: [.apt(["libjemalloc-dev"])]),
        // The only code that calls curses.
        .target(name: "ShadeTerminal", dependencies: ["ShadeUI", "CNcursesw"], swiftSettings: shadeSettings),
        .executableTarget(
            name: "shade",
            dependencies: ["ShadeCore", "ShadeUI", "ShadeIO", "ShadeTerminal", "CJemalloc"],
            resources: [],
            swiftSettings: shadeSettings
        ),
        .testTarget(name: "ShadeCoreTests", dependencies: ["ShadeCore"], resources: [.copy("Fixtures")]),
        .testTarget(name: "ShadeUITests", dependencies: ["ShadeUI", "ShadeCore"]),
        .testTarget(name: "ShadeIOTests", dependencies: ["ShadeIO", "ShadeCore"]),
        .testTarget(name: "ShadeEndToEndTests", dependencies: ["ShadeCore", "ShadeUI"]),
        .testTarget(name: "ShadeTerminalTests", dependencies: ["ShadeTerminal", "ShadeUI"]),
        // The command line as a table (help, completions, rule ids it prints), without running the binary.
        .testTarget(name: "ShadeCLITests", dependencies: ["shade", "ShadeCore"]),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzz targets (scripts/fuzz.sh, libFuzzer with -sanitize=fuzzer,address), declared only when SHADE_FUZZ=1
// so `swift build` and `swift test` never see them; fuzz.sh builds them in .build/fuzz. Each is a folder
// Fuzz/NAME holding main.swift; adding one is that file and its line here.
let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
    ("JSONParser", ["ShadeCore"]),
    ("Center", ["ShadeCore", "ShadeUI"]),
    ("HTTPRequest", ["ShadeCore", "ShadeIO"]),
    ("LineFramer", ["ShadeCore", "ShadeIO"]),
    ("StringTables", ["ShadeCore"]),
    ("LocFormat", ["ShadeCore"]),
    ("Lint", ["ShadeCore"]),
    ("HTTP2", ["ShadeCore", "ShadeIO", "CNghttp2"]),
    ("TLS", ["ShadeCore", "ShadeIO"]),
]
if Context.environment["SHADE_FUZZ"] == "1" {
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["ShadeCore"], path: "Fuzz/Support"))
    for target in fuzzTargets {
        package.targets.append(.executableTarget(name: "Fuzz" + target.name, dependencies: ["FuzzSupport"] + target.dependencies,
                                                 path: "Fuzz/" + target.name))
    }
}
