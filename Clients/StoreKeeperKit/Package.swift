// swift-tools-version: 6.1
import PackageDescription

/// What an app adds: the client SDK and the `/v1` API types it shares with the server. Its own manifest so it can
/// declare the OS versions apps still support (the server's package needs newer ones); the server's package uses
/// it by path.
let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "StoreKeeperKit",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "StoreKeeperKit", targets: ["StoreKeeperKit"]),
        .library(name: "StoreKeeperAPI", targets: ["StoreKeeperAPI"]),
        .library(name: "StoreKeeperWire", targets: ["StoreKeeperWire"]),
    ],
    targets: [
        // The bytes on the wire, written once: the JSON writer and string escaper, base64, the compact JWS/JWT
        // builder, constant-time comparison. Foundation only; the server and the SDK share it.
        .target(name: "StoreKeeperWire", swiftSettings: sharedSwiftSettings),
        // The `/v1` contract: Foundation and the wire module (each type writes its own JSON fast path).
        .target(name: "StoreKeeperAPI", dependencies: ["StoreKeeperWire"], swiftSettings: sharedSwiftSettings),
        // The client SDK's portable core (Foundation and StoreKeeperAPI), with the StoreKit adapters.
        .target(name: "StoreKeeperKit", dependencies: ["StoreKeeperAPI"], swiftSettings: sharedSwiftSettings),
        // The SDK's own specs, run by `swift test` here on Linux without a server (the live ones stay in the
        // server's package, which starts one).
        .testTarget(
            name: "StoreKeeperKitSpecs", dependencies: ["StoreKeeperKit", "StoreKeeperAPI"],
            swiftSettings: sharedSwiftSettings),
    ]
)
