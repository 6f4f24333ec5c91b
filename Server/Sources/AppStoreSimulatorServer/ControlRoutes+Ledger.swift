import AppStoreSimulator
import Foundation
import Hummingbird

/// `GET /simulator/v1/ledger?bundleId=…`: every transaction the simulator made for an app, with what a check of the
/// money needs — price and currency, storefront, offer, refund (date, type, share) and upgrade — so revenue and
/// proceeds can be computed by hand from Apple's side (scripts/population-check.py).
extension ControlRoutes {
    func addLedgerRoutes(to control: RouterGroup<BasicRequestContext>) {
        control.get("ledger") { request, _ in
            try await handle {
                guard let bundleID = request.uri.queryParameters.get("bundleId"), !bundleID.isEmpty else {
                    throw SimulatorError(.invalidRequest, "bundleId is required")
                }
                let entries = await simulator.ledger(of: bundleID).map(Self.ledgerEntry)
                return JSONResponse.object(["bundleId": bundleID, "transactions": entries])
            }
        }
    }

    /// One transaction as the ledger lists it.
    static func ledgerEntry(_ t: SimulatedTransaction) -> [String: Any] {
        var entry = describe(t)
        entry["currency"] = t.currency
        entry["storefront"] = t.storefront
        entry["isUpgraded"] = t.isUpgraded
        entry["ownership"] = t.ownership
        if let group = t.subscriptionGroupID { entry["subscriptionGroupId"] = group }
        if let type = t.revocationType { entry["revocationType"] = type }
        if let share = t.revocationPercentage { entry["revocationPercentage"] = share }
        return entry
    }
}
