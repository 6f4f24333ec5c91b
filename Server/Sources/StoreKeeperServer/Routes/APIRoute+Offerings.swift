/// The routes of offerings and the targeting rules that choose among them.
extension APIRoute {
    /// `POST /v1/offerings`: a new offering.
    public static let postOffering = APIRoute(
        .postOffering,
        APIOperation(
            "Add an offering: what a paywall sells, with the paywall's own data", body: .named("Offering"),
            status: 201, answer: APIOperation.json(.named("Offering")),
            errors: ["400", "401", "403", "409", "413", "5XX"]))
    /// `GET /v1/offerings`: the project's offerings and its current one.
    public static let getOfferings = APIRoute(
        .getOfferings,
        APIOperation(
            "The project's offerings and which one is current",
            answer: APIOperation.json(.named("OfferingsResponse")), errors: ["401", "403", "5XX"]))
    /// `PUT /v1/offerings/current`: which offering is current.
    public static let putCurrentOffering = APIRoute(
        .putCurrentOffering,
        APIOperation(
            "Choose the project's current offering", body: .named("CurrentOfferingPut"),
            answer: APIOperation.json(.named("OfferingsResponse")),
            errors: ["400", "401", "403", "404", "413", "5XX"]))
    /// `GET /v1/offerings/{identifier}`: one offering.
    public static let getOffering = APIRoute(
        .getOffering,
        APIOperation(
            "One offering", parameters: [.offeringID], answer: APIOperation.json(.named("Offering")),
            errors: ["401", "403", "404", "5XX"]))
    /// `PUT /v1/offerings/{identifier}`: an offering's new content.
    public static let putOffering = APIRoute(
        .putOffering,
        APIOperation(
            "Replace an offering's description, packages and metadata", parameters: [.offeringID],
            body: .named("OfferingPut"), answer: APIOperation.json(.named("Offering")),
            errors: ["400", "401", "403", "404", "413", "5XX"]))
    /// `DELETE /v1/offerings/{identifier}`: remove an offering (not the current one).
    public static let deleteOffering = APIRoute(
        .deleteOffering,
        APIOperation(
            "Remove an offering (not the current one)", parameters: [.offeringID], status: 204, answer: [],
            errors: ["401", "403", "404", "409", "5XX"]))
    /// `GET /v1/subscribers/{id}/offerings`: the offerings to show a customer.
    public static let getSubscriberOfferings = APIRoute(
        .getSubscriberOfferings,
        APIOperation(
            "The offerings to show a customer, and which one is current for them", parameters: [.appUserID],
            answer: APIOperation.json(.named("OfferingsResponse")), errors: ["400", "401", "403", "5XX"]))
    /// `GET /v1/targeting`: the project's targeting rules.
    public static let getTargeting = APIRoute(
        .getTargeting,
        APIOperation(
            "The project's targeting rules, in the order they are tried",
            answer: APIOperation.json(.named("TargetingRules")), errors: ["401", "403", "5XX"]))
    /// `PUT /v1/targeting`: replace the project's targeting rules.
    public static let putTargeting = APIRoute(
        .putTargeting,
        APIOperation(
            "Replace the project's targeting rules: the first rule a customer matches chooses the offering they are shown",
            body: .named("TargetingRules"), answer: APIOperation.json(.named("TargetingRules")),
            errors: ["400", "401", "403", "413", "5XX"]))
}
