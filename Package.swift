// swift-tools-version: 6.1
import PackageDescription

/// What an app adds by the repository's URL: the client SDK and the `/v1` API types it shares with the server,
/// Foundation only, at the OS versions apps still support. The server is a package of its own in `Server/` (it
/// needs newer OS versions and a large dependency graph no app should resolve) and uses this one by path.
let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// Signed answers are checked with CryptoKit on Apple's platforms, a system framework, so an app resolves no other
// package. Elsewhere (Linux: the specs, the server's tests, the demo client) the same API comes from swift-crypto,
// declared only when the manifest is read off Apple's platforms.
#if canImport(Darwin)
    let cryptoPackages: [Package.Dependency] = []
    let crypto: [Target.Dependency] = []
#else
    let cryptoPackages: [Package.Dependency] = [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0")
    ]
    let crypto: [Target.Dependency] = [.product(name: "Crypto", package: "swift-crypto")]
#endif

let package = Package(
    name: "StoreKeeperKit",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "StoreKeeperKit", targets: ["StoreKeeperKit"]),
        .library(name: "StoreKeeperAPI", targets: ["StoreKeeperAPI"]),
        .library(name: "StoreKeeperWire", targets: ["StoreKeeperWire"]),
        .library(name: "CivilCalendar", targets: ["CivilCalendar"]),
    ],
    dependencies: cryptoPackages,
    targets: [
        // The bytes on the wire, written once: the JSON writer and string escaper, base64, the compact JWS/JWT
        // builder, constant-time comparison. Foundation only; the server and the SDK share it.
        .target(name: "StoreKeeperWire", dependencies: ["CivilCalendar"], swiftSettings: sharedSwiftSettings),
        // Days since 1970 to a proleptic Gregorian date and back, by arithmetic: the timestamp writers' and
        // parsers' calendar. No imports at all, so the server's App Store models and metrics take it without the
        // wire module (a change there then does not rebuild them).
        .target(name: "CivilCalendar", swiftSettings: sharedSwiftSettings),
        // The `/v1` contract: Foundation and the wire module (each type writes its own JSON fast path).
        .target(name: "StoreKeeperAPI", dependencies: ["StoreKeeperWire"], swiftSettings: sharedSwiftSettings),
        // The client SDK's portable core (Foundation and StoreKeeperAPI), with the StoreKit adapters.
        .target(
            name: "StoreKeeperKit", dependencies: ["StoreKeeperAPI"] + crypto, swiftSettings: sharedSwiftSettings),
        // The SDK's own specs, run by `swift test` here on Linux without a server (the live ones stay in the
        // server's package, which starts one).
        .testTarget(
            name: "StoreKeeperKitSpecs", dependencies: ["StoreKeeperKit", "StoreKeeperAPI"] + crypto,
            swiftSettings: sharedSwiftSettings),
    ]
)
