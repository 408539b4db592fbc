// swift-tools-version:6.0
import PackageDescription

/// Release builds of the engine and the Lua host skip Swift's dynamic exclusivity checks: they run on one thread
/// (a scene's, the daemon's loop) and the checks cost ~12 % of a transition start (docs/DESIGN.md, "Exclusivity";
/// measured again on SegueKit by scripts/instructions: +16 % instructions per dt-slide select, +8 % per subscribed frame).
/// Debug and test builds keep every check.
let releaseUnchecked: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "segued",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "segued", targets: ["segued"]),
        .executable(name: "seguectl", targets: ["seguectl"]),
        .executable(name: "segue-bench", targets: ["segue-bench"]),
        .executable(name: "segue-studio", targets: ["segue-studio"]),
        .executable(name: "segue-allocs", targets: ["segue-allocs"]),
        .library(name: "SegueKit", targets: ["SegueKit"]),
        .library(name: "SegueClient", targets: ["SegueClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
    ],
    targets: [
        // The system Lua 5.4, found through pkg-config (Debian: liblua5.4-dev).
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // C wrappers for Lua's macros, the host-call trampoline, the capping allocator and the hooks.
        .target(name: "CLuaShim", dependencies: ["CLua"]),
        // The shortest round-trip double printer (Ryu), byte-identical to Double.description, without allocating.
        .target(name: "CDtoa", cSettings: [.unsafeFlags(["-O2"])]),
        // A small JSON value type with a fast, bounded parser and a serializer.
        .target(name: "SegueJSON", dependencies: ["CDtoa"]),
        // The one version string segued, seguectl and daemon.info report.
        .target(name: "SegueVersion"),
        // The transition engine: pure Swift, no I/O, driven by a clock.
        .target(name: "SegueKit", swiftSettings: releaseUnchecked),
        // Pictures of transitions (render.*): filmstrips and property curves as SVG, from recorded timelines.
        .target(name: "SegueRender", dependencies: ["SegueKit", "SegueJSON"]),
        // The only module that touches Lua.
        .target(name: "SegueLua", dependencies: ["SegueKit", "CLuaShim"], swiftSettings: releaseUnchecked),
        // The Linux calls the daemon's event loop needs that Swift's Glibc module does not import (epoll and co.).
        .target(name: "CEventLoop"),
        // segue-bench's C reference for the engine's per-frame work (`segue-bench engine`), always -O2; its printed case
        // writes the frame event with the daemon's number printer (CDtoa).
        .target(name: "CEngineReference", dependencies: ["CDtoa"], cSettings: [.unsafeFlags(["-O2"])]),
        // The region callgrind counts in `segue-bench instructions` (scripts/instructions, the CI guard).
        .target(name: "CMeasuredRegion"),
        .target(
            name: "SegueDaemon",
            dependencies: [
                "SegueKit", "SegueLua", "SegueJSON", "SegueRender", "CEventLoop", "SegueVersion",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // The transport: the socket loop, the connections, socket activation, sd_notify and the stall detector. It
        // holds bytes and sockets; SegueDaemon holds the daemon's methods. It reaches the daemon through the output
        // seam (ConnectionOutput, Daemon.handle/connect/disconnect/flushPending) and gives it the loop through
        // DaemonLoop.
        .target(
            name: "SegueTransport",
            dependencies: [
                "SegueDaemon", "SegueKit", "SegueLua", "CEventLoop",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "SegueClient", dependencies: ["SegueJSON"]),
        // seguectl's logic, kept out of the executable so it can be unit-tested: the human-readable printers and
        // the scenario runner (scripted integration tests).
        .target(name: "SegueCtlKit", dependencies: ["SegueClient", "SegueJSON", "SegueKit", "SegueRender"]),
        // Movies of transitions (`seguectl movie`, the studio's Movie button): render.frames' SVGs rasterised by
        // rsvg-convert and encoded by ffmpeg, run through one runner with a timeout. No NIO, no engine.
        .target(name: "SegueMovie", dependencies: ["SegueJSON"]),
        .executableTarget(
            name: "segued",
            dependencies: [
                "SegueDaemon", "SegueTransport", "SegueVersion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "seguectl",
            dependencies: [
                "SegueClient", "SegueJSON", "SegueCtlKit", "SegueVersion", "SegueMovie",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `seguectl studio`: a loopback HTTP + WebSocket page that drives the daemon through its socket. Its own
        // module and executable, so seguectl neither builds nor loads SwiftNIO's HTTP stack.
        .target(
            name: "SegueStudio",
            dependencies: [
                "SegueJSON",
                "SegueVersion",
                // The Movie button: render.frames over a connection of its own, encoded off the event loop.
                "SegueClient",
                "SegueMovie",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "segue-studio",
            dependencies: [
                "SegueStudio", "SegueClient", "SegueVersion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "segue-bench",
            dependencies: [
                "SegueClient", "SegueJSON", "SegueKit", "SegueLua", "CEngineReference", "CMeasuredRegion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `dispatch` (the daemon's share of a request) and `floor` (a bare SwiftNIO server).
                "SegueDaemon",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Counts heap allocations by defining malloc & co.: ONLY segue-allocs may depend on it (anything linking it
        // has its allocator wrapped). No test target depends on segue-allocs either: a test runs the built binary.
        .target(name: "CAllocCount"),
        // Heap allocations per steady-state frame and per request, as JSON, for the CI guard (counts, not times).
        .executableTarget(
            name: "segue-allocs",
            dependencies: [
                "CAllocCount", "SegueKit", "SegueDaemon",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "SegueKitTests", dependencies: ["SegueKit", "SegueJSON"]),
        .testTarget(name: "SegueLuaTests", dependencies: ["SegueLua", "SegueKit", "SegueJSON"]),
        .testTarget(name: "SegueRenderTests", dependencies: ["SegueRender", "SegueKit", "SegueJSON"]),
        .testTarget(
            name: "SegueDaemonTests",
            dependencies: ["SegueDaemon", "SegueTransport", "SegueJSON", "CEventLoop", "CDtoa"]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["SegueClient", "SegueJSON", "SegueVersion", "segued", "seguectl", "segue-studio"]
        ),
        // SegueDaemon: RelayRuleCoverageTests hold the studio's relay table to the daemon's method table.
        .testTarget(name: "SegueStudioTests", dependencies: ["SegueStudio", "SegueJSON", "SegueDaemon"]),
        .testTarget(name: "SegueCtlKitTests", dependencies: ["SegueCtlKit", "SegueClient", "SegueJSON"]),
        .testTarget(name: "SegueMovieTests", dependencies: ["SegueMovie", "SegueJSON"]),
        // Runs every file in Tests/Scenarios against a real segued, and seguectl against it.
        .testTarget(
            name: "ScenarioTests",
            dependencies: ["SegueCtlKit", "SegueClient", "SegueJSON", "segued", "seguectl"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
