import Hummingbird
import StoreKeeperAPI

/// Promotional offers: the server signs what the app may offer.
struct OfferRoutes: APIFeature {
    let signer: OfferSigner

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.postOfferSignature) { call in
            let body = try await call.decode(OfferSignatureRequest.self)
            return try call.json(
                try await signer.sign(
                    bundleID: call.bundleID, productID: try call.required(body.productID, "product_id"),
                    offerID: try call.required(body.offerID, "offer_id"), appAccountToken: body.appAccountToken,
                    appUserID: body.appUserID, transactionID: body.transactionID))
        }
    }
}
