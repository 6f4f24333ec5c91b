// swift-tools-version: 6.1
import PackageDescription

/// An app's view of StoreKeeperKit: an outside package that compiles against the public surface only
/// (`scripts/test` builds it), so a symbol the SDK promises cannot quietly become internal.
let package = Package(
    name: "SurfaceCheck",
    platforms: [.iOS(.v15), .macOS(.v12)],
    dependencies: [.package(path: "../StoreKeeperKit")],
    targets: [
        .executableTarget(
            name: "SurfaceCheck", dependencies: [.product(name: "StoreKeeperKit", package: "StoreKeeperKit")])
    ]
)
