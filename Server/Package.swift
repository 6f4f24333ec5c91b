// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// The repository root is the package an app adds (StoreKeeperKit, StoreKeeperAPI, StoreKeeperWire); the server
/// uses it by path. SwiftPM names a path dependency after its folder, which is wherever the repository was
/// cloned, so the name is read from this manifest's location rather than spelled.
let sdk = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

/// Settings every StoreKeeper target shares: Swift 6 language mode and strict checks.
let sharedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "StoreKeeperServer",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "AppStoreModels", targets: ["AppStoreModels"]),
        .library(name: "AppStoreVerification", targets: ["AppStoreVerification"]),
        .library(name: "AppStoreSigning", targets: ["AppStoreSigning"]),
        .library(name: "SubscriptionEngine", targets: ["SubscriptionEngine"]),
        .library(name: "AppStoreSimulator", targets: ["AppStoreSimulator"]),
        .library(name: "AppStoreSimulatorServer", targets: ["AppStoreSimulatorServer"]),
        .library(name: "EvidenceInspection", targets: ["EvidenceInspection"]),
        .executable(name: "storekeeper", targets: ["storekeeper"]),
        .executable(name: "storekeeper-lab", targets: ["storekeeper-lab"]),
    ],
    dependencies: [
        // The client SDK and the /v1 types: the repository root's manifest (apps' OS versions).
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        .target(
            name: "AppStoreModels",
            dependencies: [.product(name: "CivilCalendar", package: sdk)],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "FilePermissions",
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "AppStoreVerification",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk),
                "AppStoreModels",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "SubscriptionEngine",
            dependencies: ["AppStoreModels"],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "SubscriptionMetrics",
            dependencies: ["SubscriptionEngine", .product(name: "CivilCalendar", package: sdk)],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "AppStoreSigning",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk),
                "AppStoreVerification",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "AppStoreSimulator",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk),
                "AppStoreModels", "AppStoreVerification", "AppStoreSigning", "FilePermissions",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "AppStoreSimulatorServer",
            dependencies: [
                "AppStoreSimulator", "AppStoreModels", "AppStoreVerification", "AppStoreSigning",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "AppStoreClient",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk),
                "AppStoreModels", "AppStoreVerification",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "StoreKeeperStorage",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk), "SubscriptionEngine", "SubscriptionMetrics",
                "AppStoreModels", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "StoreKeeperSQLite",
            dependencies: [
                "StoreKeeperStorage", "SubscriptionEngine", "SubscriptionMetrics", "FilePermissions",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "StoreKeeperPostgres",
            dependencies: [
                "StoreKeeperStorage", "SubscriptionEngine", "SubscriptionMetrics",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "StoreKeeperServer",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk),
                "AppStoreModels", "AppStoreVerification", "AppStoreClient", "SubscriptionEngine", "StoreKeeperStorage",
                "SubscriptionMetrics",
                "FilePermissions", .product(name: "StoreKeeperAPI", package: sdk),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("Resources/storefront-tax-rates.json")],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "EvidenceInspection",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk), "AppStoreModels", "AppStoreVerification",
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "StoreKeeperBench",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk),
                "AppStoreVerification", "AppStoreSigning",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "StoreKeeperCLI",
            dependencies: [
                .product(name: "StoreKeeperKit", package: sdk),
                "AppStoreModels",
                "AppStoreVerification",
                "EvidenceInspection",
                "AppStoreSigning",
                "SubscriptionEngine",
                "AppStoreSimulator",
                "AppStoreSimulatorServer",
                "StoreKeeperServer", .product(name: "StoreKeeperAPI", package: sdk), "StoreKeeperStorage",
                "StoreKeeperSQLite", "StoreKeeperPostgres",
                "FilePermissions",
                "AppStoreClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "storekeeper",
            dependencies: ["StoreKeeperCLI"],
            swiftSettings: sharedSwiftSettings
        ),
        // The measurement tools (benchmarks, load, scale and memory checks): their own executable, so the binary
        // users run carries none of them.
        .target(
            name: "StoreKeeperLab",
            dependencies: [
                "StoreKeeperCLI", "StoreKeeperBench", "AppStoreModels", "AppStoreSigning", "AppStoreSimulator",
                "AppStoreVerification", "FilePermissions", "StoreKeeperPostgres", "StoreKeeperServer",
                "StoreKeeperStorage", "SubscriptionEngine", "SubscriptionMetrics",
                .product(name: "StoreKeeperAPI", package: sdk),
                .product(name: "StoreKeeperWire", package: sdk),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "storekeeper-lab",
            dependencies: ["StoreKeeperLab", "StoreKeeperCLI"],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk),
                "AppStoreModels",
                "AppStoreVerification",
                "AppStoreSigning",
                "AppStoreSimulator",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        // The databases of the specs that need one (SQLite files, PostgreSQL databases made per test): its own
        // target, so the storage modules sit upstream only of the test targets that store something.
        .target(
            name: "TestDatabaseSupport",
            dependencies: [
                "StoreKeeperStorage", "StoreKeeperSQLite", "StoreKeeperPostgres", "SubscriptionEngine",
                "SubscriptionMetrics",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "SubscriptionMetricsTests",
            dependencies: ["SubscriptionMetrics", "SubscriptionEngine", "AppStoreModels"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "AppStoreModelsTests",
            dependencies: ["AppStoreModels", "TestSupport"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "AppStoreVerificationTests",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk),
                "AppStoreVerification", "AppStoreModels", "AppStoreSigning", "TestSupport",
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "EvidenceInspectionTests",
            dependencies: [
                "EvidenceInspection", "AppStoreVerification", "AppStoreModels", "AppStoreSigning", "TestSupport",
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "SubscriptionEngineTests",
            dependencies: ["SubscriptionEngine", "AppStoreModels", "AppStoreVerification", "TestSupport"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "AppStoreSimulatorTests",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk),
                "AppStoreSimulator", "AppStoreModels", "AppStoreVerification", "EvidenceInspection", "TestSupport",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "AppStoreSimulatorServerTests",
            dependencies: [
                "AppStoreSimulatorServer", "AppStoreSimulator", "AppStoreModels", "AppStoreVerification", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "StoreKeeperStorageTests",
            dependencies: [
                "StoreKeeperStorage", "StoreKeeperSQLite", "StoreKeeperPostgres", "SubscriptionEngine", "TestSupport",
                "TestDatabaseSupport", "AppStoreModels", "AppStoreSigning", "AppStoreSimulator",
                .product(name: "StoreKeeperAPI", package: sdk),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "StoreKeeperServerTests",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk),
                "StoreKeeperServer", "StoreKeeperStorage", "AppStoreSimulator", "AppStoreSimulatorServer",
                "AppStoreModels", "TestDatabaseSupport",
                "SubscriptionEngine", "TestSupport", "AppStoreClient", "AppStoreSigning",
                .product(name: "StoreKeeperAPI", package: sdk),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "StoreKeeperWireTests",
            dependencies: [
                .product(name: "StoreKeeperWire", package: sdk), "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "StoreKeeperLabTests",
            dependencies: ["TestSupport", "TestDatabaseSupport", "SubscriptionMetrics"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "StoreKeeperBenchTests",
            dependencies: ["StoreKeeperBench"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "StoreKeeperKitTests",
            dependencies: [
                .product(name: "StoreKeeperKit", package: sdk),
                .product(name: "StoreKeeperAPI", package: sdk), "TestSupport",
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "StoreKeeperCLITests",
            dependencies: [
                "AppStoreVerification", "StoreKeeperCLI", "TestSupport", "TestDatabaseSupport", "FilePermissions",
                "StoreKeeperStorage",
                .product(name: "StoreKeeperAPI", package: sdk),
                "AppStoreSimulator",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
