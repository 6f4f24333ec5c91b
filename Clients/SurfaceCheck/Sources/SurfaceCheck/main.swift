// The public surface StoreKeeperKit promises (issue 19), written as an app writes it. Compiled, not run.
import Foundation
import StoreKeeperKit

func appLifecycle(url: URL, someStore: any PurchaseStore) async throws {
    let storeKeeper = StoreKeeper(
        configuration: StoreKeeper.Configuration(serverURL: url, apiKey: "pk_…"),
        store: someStore,
        persistence: InMemoryPersistence()
    )
    try await storeKeeper.start()
    let info: CustomerInfo = try await storeKeeper.customerInfo()
    let premium: EntitlementInfo? = info.entitlements["premium"]
    let facts: (Bool?, String?, Date??, Bool?, String?) = (
        premium?.isActive, premium?.productID, premium?.expiresAt, premium?.willRenew, premium?.periodType
    )
    _ = facts
    let result: PurchaseResult = try await storeKeeper.purchase(productID: "premium.monthly")
    switch result {
    case .purchased(let after): _ = after.activeEntitlements
    case .userCancelled, .pending: break
    }
    let restored: CustomerInfo = try await storeKeeper.restorePurchases()
    _ = restored.verification == .cannotVerify
    _ = try await storeKeeper.logIn("user-42")
    try await storeKeeper.logOut()
    let offerings: Offerings = try await storeKeeper.offerings()
    if let paywall: OfferingInfo = offerings.current, let package: PackageInfo = paywall.packages.first {
        _ = (paywall.metadata["title"], package.product.priceText, offerings.isFromCache, offerings["sale"])
        _ = try await storeKeeper.purchase(package: package)
    }
    let products: [StoreProduct] = try await storeKeeper.products(["premium.monthly"])
    _ = products.first?.priceText
    for await update in storeKeeper.customerInfoUpdates { _ = update }
    _ = FilePersistence(directory: URL(fileURLWithPath: "/tmp"))
    _ = SimulatorStore(simulatorURL: url, bundleID: "com.example.app", customerID: "alice")
}

// Signed answers, observer mode, manage and refund (issue 38).
func appOwnPurchases(url: URL, someStore: any PurchaseStore, bought: StoreTransaction) async throws {
    var configuration = StoreKeeper.Configuration(serverURL: url, apiKey: "pk_…")
    configuration.answerSigningKeys = ["<the public: line of storekeeper keys new signing>"]
    let observer = StoreKeeper(
        configuration: configuration, store: someStore, persistence: InMemoryPersistence(), mode: .observer)
    let info: CustomerInfo = try await observer.recordPurchase(bought)
    _ = (info.verification == .failed, info.managementURL, observer.mode == .observer)
    let managed: CustomerInfo = try await observer.showManageSubscriptions()
    _ = managed
    let refund: RefundRequestStatus = try await observer.beginRefundRequest(for: "premium.monthly")
    _ = refund == .userCancelled
    do { _ = try await observer.purchase(productID: "premium.monthly") } catch let error as StoreKeeperError {
        _ = [StoreKeeperError.Code.observerMode, .answerNotVerified, .unsupported].contains(error.code)
    }
}

print("StoreKeeperKit's surface compiles")
