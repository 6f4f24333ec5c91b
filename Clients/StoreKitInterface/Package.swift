// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// Type-checks the SDK's StoreKit adapters on Linux (issue 38, item 2). `StoreKit` here is a transcription of
/// exactly the StoreKit declarations the adapters use, from Apple's documentation (each names its page);
/// `StoreKeeperKitOnStoreKit` compiles the SDK's own sources, unchanged, against it: with a module named
/// `StoreKit` present, their `#if canImport(StoreKit)` adapters are compiled. `scripts/test` builds it. What only
/// an Apple platform can prove: that the transcription matches the real framework, and the UIKit code
/// (`#if os(iOS) || os(visionOS)`). SwiftPM names a path dependency after its folder, so the repository's name
/// is read, not spelled.
let repository = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "StoreKitInterface",
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        .target(name: "StoreKit", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        // The SDK's sources (a link to the repository's Sources/StoreKeeperKit), compiled with StoreKit above.
        .target(
            name: "StoreKeeperKitOnStoreKit",
            dependencies: [
                "StoreKit",
                .product(name: "StoreKeeperAPI", package: repository),
                .product(name: "StoreKeeperWire", package: repository),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
