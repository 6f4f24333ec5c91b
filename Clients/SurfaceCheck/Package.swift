// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// An app's view of StoreKeeperKit: an outside package that depends on the repository root by path, as an app
/// depends on its URL, and compiles against the public surface only (`scripts/test` builds it), so a symbol the
/// SDK promises cannot quietly become internal and the root keeps building the SDK alone. SwiftPM names a path
/// dependency after its folder (wherever the repository was cloned), so the name is read, not spelled.
let repository = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "SurfaceCheck",
    platforms: [.iOS(.v15), .macOS(.v12)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "SurfaceCheck", dependencies: [.product(name: "StoreKeeperKit", package: repository)])
    ]
)
