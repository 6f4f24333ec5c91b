/// The routes of offerings and the targeting rules that choose among them.
extension APIEndpoint {
    /// `POST /v1/offerings`: a new offering.
    public static let postOffering = APIEndpoint(
        .post, "v1/offerings", .secretKey(.admin),
        APIOperation(
            "Add an offering: what a paywall sells, with the paywall's own data", body: .type(Offering.self),
            status: 201, answer: APIOperation.json(.type(Offering.self)),
            errors: ["400", "401", "403", "409", "413", "5XX"]))
    /// `GET /v1/offerings`: the project's offerings and its current one.
    public static let getOfferings = APIEndpoint(
        .get, "v1/offerings", .secretKey(.read),
        APIOperation(
            "The project's offerings and which one is current",
            answer: APIOperation.json(.type(OfferingsResponse.self)), errors: ["401", "403", "5XX"]))
    /// `PUT /v1/offerings/current`: which offering is current.
    public static let putCurrentOffering = APIEndpoint(
        .put, "v1/offerings/current", .secretKey(.admin),
        APIOperation(
            "Choose the project's current offering", body: .type(CurrentOfferingPut.self),
            answer: APIOperation.json(.type(OfferingsResponse.self)),
            errors: ["400", "401", "403", "404", "413", "5XX"]))
    /// `GET /v1/offerings/{identifier}`: one offering.
    public static let getOffering = APIEndpoint(
        .get, "v1/offerings/\(.offeringID)", .secretKey(.read),
        APIOperation(
            "One offering", answer: APIOperation.json(.type(Offering.self)),
            errors: ["401", "403", "404", "5XX"]))
    /// `PUT /v1/offerings/{identifier}`: an offering's new content.
    public static let putOffering = APIEndpoint(
        .put, "v1/offerings/\(.offeringID)", .secretKey(.admin),
        APIOperation(
            "Replace an offering's description, packages and metadata", body: .type(OfferingPut.self),
            answer: APIOperation.json(.type(Offering.self)),
            errors: ["400", "401", "403", "404", "413", "5XX"]))
    /// `DELETE /v1/offerings/{identifier}`: remove an offering (not the current one).
    public static let deleteOffering = APIEndpoint(
        .delete, "v1/offerings/\(.offeringID)", .secretKey(.admin),
        APIOperation(
            "Remove an offering (not the current one)", status: 204, answer: [],
            errors: ["401", "403", "404", "409", "5XX"]))
    /// `GET /v1/subscribers/{app_user_id}/offerings`: the offerings to show a customer.
    public static let getSubscriberOfferings = APIEndpoint(
        .get, "v1/subscribers/\(.appUserID)/offerings", .publicKey,
        APIOperation(
            "The offerings to show a customer, and which one is current for them",
            answer: APIOperation.json(.type(OfferingsResponse.self)), errors: ["400", "401", "403", "5XX"]))
    /// `GET /v1/targeting`: the project's targeting rules.
    public static let getTargeting = APIEndpoint(
        .get, "v1/targeting", .secretKey(.read),
        APIOperation(
            "The project's targeting rules, in the order they are tried",
            answer: APIOperation.json(.type(TargetingRules.self)), errors: ["401", "403", "5XX"]))
    /// `PUT /v1/targeting`: replace the project's targeting rules.
    public static let putTargeting = APIEndpoint(
        .put, "v1/targeting", .secretKey(.admin),
        APIOperation(
            "Replace the project's targeting rules: the first rule a customer matches chooses the offering they are shown",
            body: .type(TargetingRules.self), answer: APIOperation.json(.type(TargetingRules.self)),
            errors: ["400", "401", "403", "413", "5XX"]))

    /// This feature's routes, in the order the OpenAPI document lists them.
    static let offeringsRoutes: [APIEndpoint] = [
        postOffering, getOfferings, putCurrentOffering, getOffering, putOffering, deleteOffering,
        getSubscriberOfferings, getTargeting, putTargeting,
    ]
}
