import Foundation
import StoreKeeperAPI
import StoreKeeperStorage

/// Offerings apart from HTTP: the owner edits a project's offerings and chooses its current one (secret key);
/// the app asks which to show (public key), answered from memory. Every call acts inside the caller's project.
struct OfferingService: Sendable {
    let store: any SettingStore
    let apps: AppDirectory
    let rules: OfferingRules
    let books: ProjectSettingsCache<OfferingBook>
    /// Where targeting reads a customer's standing.
    let subscribers: SubscriberService
    /// Puts customers in the running experiment's variants.
    let enroller: Enroller
    let now: @Sendable () -> Date

    /// Offerings kept in `settings`, checked against `catalog` (empty: any product); enrolments in `store`.
    init(
        settings: any SettingStore, experiments: any ExperimentStore, attributes: any AttributeStore,
        store: any EvidenceStore, apps: AppDirectory,
        catalog: Set<String>, subscribers: SubscriberService, guests: GuestBudget, now: @escaping @Sendable () -> Date
    ) {
        self.store = settings
        enroller = Enroller(
            store: store, attributes: attributes, experiments: experiments,
            secrets: ExperimentSecrets(store: settings, now: now),
            guests: guests)
        self.apps = apps
        self.subscribers = subscribers
        self.now = now
        rules = OfferingRules(catalog: catalog)
        books = ProjectSettingsCache(store: settings) { try OfferingBook($0) }
    }

    /// The caller's project's offerings.
    func book(bundleID: String) async throws -> OfferingBook {
        try await books.value(projectID: try apps.project(bundleID).id)
    }

    /// `POST /v1/offerings`.
    func create(_ offering: Offering, bundleID: String) async throws -> Offering {
        let project = try apps.project(bundleID)
        let offering = try rules.checked(offering)
        guard try await book(bundleID: bundleID).offerings.count < OfferingRules.maximumOfferings else {
            throw ServiceError(
                .conflict, .tooManyOfferings, "a project has at most \(OfferingRules.maximumOfferings) offerings")
        }
        guard
            try await store.saveProjectSetting(
                try OfferingBook.setting(offering, projectID: project.id, at: now()), mode: .create)
        else {
            throw ServiceError(
                .conflict, .offeringExists,
                "offering \"\(offering.identifier)\" exists; change it with PUT /v1/offerings/\(offering.identifier)")
        }
        return offering
    }

    /// `PUT /v1/offerings/{identifier}`.
    func replace(_ identifier: String, with content: OfferingPut, bundleID: String) async throws -> Offering {
        let project = try apps.project(bundleID)
        let offering = try rules.checked(
            Offering(
                identifier: try OfferingRules.checkedIdentifier(identifier), description: content.description,
                packages: content.packages, metadata: content.metadata))
        guard
            try await store.saveProjectSetting(
                try OfferingBook.setting(offering, projectID: project.id, at: now()), mode: .replace)
        else {
            throw Self.notFound(identifier)
        }
        return offering
    }

    /// `GET /v1/offerings/{identifier}`.
    func offering(_ identifier: String, bundleID: String) async throws -> Offering {
        guard let offering = try await book(bundleID: bundleID).offering(identifier) else {
            throw Self.notFound(identifier)
        }
        return offering
    }

    /// `DELETE /v1/offerings/{identifier}`: not the current offering.
    func delete(_ identifier: String, bundleID: String) async throws {
        let project = try apps.project(bundleID)
        let book = try await book(bundleID: bundleID)
        if book.currentID == identifier {
            throw ServiceError(
                .conflict, .offeringIsCurrent,
                "offering \"\(identifier)\" is the current one; make another current first (PUT /v1/offerings/current)")
        }
        if let use = book.use(of: identifier) {
            throw ServiceError(
                .conflict, .offeringInUse, "offering \"\(identifier)\" is shown by \(use); change or stop that first")
        }
        guard
            try await store.deleteProjectSetting(
                projectID: project.id, kind: OfferingBook.offeringKind, name: identifier)
        else { throw Self.notFound(identifier) }
    }

    /// `PUT /v1/offerings/current`.
    func makeCurrent(_ choice: CurrentOfferingPut, bundleID: String) async throws -> OfferingsResponse {
        let project = try apps.project(bundleID)
        guard try await book(bundleID: bundleID).offering(choice.identifier) != nil else {
            throw Self.notFound(choice.identifier)
        }
        _ = try await store.saveProjectSetting(
            try OfferingBook.currentSetting(choice.identifier, projectID: project.id, at: now()), mode: .upsert)
        return try await book(bundleID: bundleID).response
    }

    /// `GET /v1/subscribers/{id}/offerings`: the project's answer from memory, or the first matching targeting
    /// rule's (reading the customer's document only when a rule's condition needs it).
    func answer(appUserID: String, bundleID: String, request: OfferingRequest) async throws -> [UInt8] {
        let appUserID = try CustomerID.normalized(appUserID)
        let project = try apps.project(bundleID)
        let subscribers = subscribers
        let context = CustomerContext(
            platform: request.platform, appVersion: request.appVersion.flatMap(AppVersion.init),
            storefront: request.storefront, locale: LocaleTag.first(ofAcceptLanguage: request.acceptLanguage),
            now: now(),
            subscriber: {
                let document = try await subscribers.subscriberDocument(
                    appUserID: appUserID, project: project, personal: true)
                return try APICoding.decoder().decode(SubscriberResponse.self, from: Data(document))
            },
            attributes: { try await subscribers.heldAttributes(appUserID: appUserID, project: project) })
        let enroller = enroller
        let instant = context.now
        return try await books.value(projectID: project.id).answer(for: context) { experiment in
            try await enroller.variant(of: appUserID, in: experiment, project: project, now: instant)
        }
    }

    /// `GET /v1/targeting`.
    func targeting(bundleID: String) async throws -> TargetingRules {
        TargetingRules(rules: try await book(bundleID: bundleID).rules)
    }

    /// `PUT /v1/targeting`: the rules, checked against the project's offerings, replace the old ones.
    func replaceTargeting(_ rules: TargetingRules, bundleID: String) async throws -> TargetingRules {
        let project = try apps.project(bundleID)
        let offerings = Set(try await book(bundleID: bundleID).offerings.map(\.identifier))
        let rules = try TargetingCheck.checked(rules, offerings: offerings)
        let body = String(decoding: try APICoding.encoder().encode(rules), as: UTF8.self)
        _ = try await store.saveProjectSetting(
            ProjectSetting(
                projectID: project.id, kind: OfferingBook.targetingKind, name: "", body: body, updatedAt: now()),
            mode: .upsert)
        return rules
    }

    static func notFound(_ identifier: String) -> ServiceError {
        ServiceError(.notFound, .offeringNotFound, "no offering \"\(identifier.prefix(100))\" in this project")
    }
}
