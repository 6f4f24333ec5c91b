public import Foundation
import StoreKeeperAPI
public import StoreKeeperStorage

/// The demo app's paywall, so `offerings()` answers on a server started with no configuration: the `default`
/// offering (monthly and annual premium) made current, written once when the demo project has no offerings.
public enum DemoOffering {
    /// The offering.
    static let offering = Offering(
        identifier: "default", description: "The demo app's paywall",
        packages: [
            OfferingPackage(identifier: "monthly", productID: "premium.monthly"),
            OfferingPackage(identifier: "annual", productID: "premium.annual"),
        ],
        metadata: ["title": .string("Go Premium"), "features": .array([.string("Sync"), .string("Themes")])])

    /// Writes the demo offering into `projectID` and makes it current, unless the project has offerings already.
    /// - Parameters:
    ///   - store: Where settings are kept.
    ///   - projectID: The demo app's project.
    ///   - now: When it is written.
    public static func seed(into store: any SettingStore, projectID: String, now: Date) async throws {
        let existing = try await store.projectSettings(projectID: projectID)
        guard !existing.contains(where: { $0.kind == OfferingBook.offeringKind }) else { return }
        _ = try await store.saveProjectSetting(
            try OfferingBook.setting(offering, projectID: projectID, at: now), mode: .create)
        _ = try await store.saveProjectSetting(
            try OfferingBook.currentSetting(offering.identifier, projectID: projectID, at: now),
            mode: .create)
    }
}
