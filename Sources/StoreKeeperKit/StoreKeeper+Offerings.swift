public import Foundation
import StoreKeeperAPI

extension StoreKeeper {
    /// What the app may sell now: the server's offerings with the store's products (and this customer's
    /// introductory-offer eligibility).
    ///
    /// Answers at once from the device's cache when it has one and asks the server in the background, so a
    /// paywall never waits on the network twice; with no cache it waits for the server at most
    /// ``Configuration/offeringsTimeout``. Offline, the last answer is used, however old.
    /// - Returns: The offerings; ``Offerings/isFromCache`` says whether they came from the cache.
    /// - Throws: ``StoreKeeperError``: `timedOut` when neither the server nor the store answered in time and
    ///   nothing is cached, `offline` or `server` when the server could not be asked and nothing is cached.
    public func offerings() async throws -> Offerings {
        let current = try await started()
        let timeout = configuration.offeringsTimeout
        if let cached = current.offerings {
            _ = offeringsFetch()
            let priced = Task { try await self.priced(cached, fromCache: true) }
            guard let offerings = try await BoundedWait.value(of: priced, within: timeout) else {
                throw StoreKeeperError(.timedOut, "the store did not price the offerings' products within \(timeout) s")
            }
            return offerings
        }
        let fetch = offeringsFetch()
        let priced = Task { try await self.priced(try await fetch.value, fromCache: false) }
        guard let offerings = try await BoundedWait.value(of: priced, within: timeout) else {
            throw StoreKeeperError(
                .timedOut, "the offerings did not arrive within \(timeout) s and none are cached on the device")
        }
        return offerings
    }

    /// Buys what a package sells (see ``purchase(productID:promotionalOfferID:)``).
    public func purchase(package: PackageInfo, promotionalOfferID: String? = nil) async throws -> PurchaseResult {
        try await purchase(productID: package.product.id, promotionalOfferID: promotionalOfferID)
    }

    /// The server's offerings, asked once at a time: a caller while a request is in flight shares it. The answer
    /// is saved on the device as it arrives, even when the caller stopped waiting.
    func offeringsFetch() -> Task<OfferingsResponse, any Error> {
        if let inFlight = fetchingOfferings { return inFlight }
        let task = Task { () async throws -> OfferingsResponse in
            defer { self.fetchingOfferings = nil }
            let current = try await self.started()
            let response = try await self.server.offerings(current.appUserID)
            try await self.rememberOfferings(response)
            return response
        }
        fetchingOfferings = task
        return task
    }

    func rememberOfferings(_ response: OfferingsResponse) async throws {
        guard var saved = state else { return }
        saved.offerings = response
        state = saved
        try await saveState()
    }

    /// The server's offerings with each package's store product, leaving out packages the store does not sell.
    func priced(_ response: OfferingsResponse, fromCache: Bool) async throws -> Offerings {
        let ids = Array(Set(response.offerings.flatMap { $0.packages.map(\.productID) })).sorted()
        let products = ids.isEmpty ? [] : try await self.products(ids)
        let byID = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var all: [String: OfferingInfo] = [:]
        for offering in response.offerings {
            all[offering.identifier] = OfferingInfo(
                identifier: offering.identifier, description: offering.description,
                packages: offering.packages.compactMap { package in
                    byID[package.productID].map {
                        PackageInfo(
                            identifier: package.identifier, offeringIdentifier: offering.identifier, product: $0)
                    }
                },
                metadata: offering.metadata)
        }
        return Offerings(
            current: response.currentOfferingID.flatMap { all[$0] }, all: all, isFromCache: fromCache,
            experiment: response.experiment, targetingRule: response.targetingRule)
    }
}
