import Hummingbird
import StoreKeeperAPI

/// The offerings room: the owner's routes to edit a project's offerings (secret key) and the app's route to read
/// which to show (public key).
struct OfferingRoutes: APIFeature {
    let offerings: OfferingService

    func register(_ handlers: inout APIHandlers) {
        handlers.on(.postOffering) { call in
            let body = try await call.decode(Offering.self)
            return try call.json(try await offerings.create(body, bundleID: call.bundleID), status: .created)
        }
        handlers.on(.getOfferings) { call in try call.json(try await offerings.book(bundleID: call.bundleID).response) }
        handlers.on(.putCurrentOffering) { call in
            let body = try await call.decode(CurrentOfferingPut.self)
            return try call.json(try await offerings.makeCurrent(body, bundleID: call.bundleID))
        }
        handlers.on(.getOffering) { call in
            try call.json(try await offerings.offering(try call.parameter(.offeringID), bundleID: call.bundleID))
        }
        handlers.on(.putOffering) { call in
            let body = try await call.decode(OfferingPut.self)
            return try call.json(
                try await offerings.replace(try call.parameter(.offeringID), with: body, bundleID: call.bundleID))
        }
        handlers.on(.deleteOffering) { call in
            try await offerings.delete(try call.parameter(.offeringID), bundleID: call.bundleID)
            return Response(status: .noContent)
        }
        handlers.on(.getSubscriberOfferings) { call in
            call.json(
                try await offerings.answer(
                    appUserID: try call.parameter(.appUserID), bundleID: call.bundleID,
                    request: OfferingRequest(call.request.headers)))
        }
        handlers.on(.getTargeting) { call in try call.json(try await offerings.targeting(bundleID: call.bundleID)) }
        handlers.on(.putTargeting) { call in
            let rules = try await call.decode(TargetingRules.self)
            return try call.json(try await offerings.replaceTargeting(rules, bundleID: call.bundleID))
        }
    }
}
