import Foundation
public import StoreKeeperStorage

/// The checks a configuration passes before the server starts, each naming the key and value it refuses.
extension ServerConfiguration {
    /// Checks what the server needs before it starts: projects, and every API key's app and length.
    /// - Throws: ``ConfigurationError`` naming the key (by its first characters only) or the project.
    public func validate() throws {
        _ = try projectScopes()
        // With the simulator and no app yet, the demo app comes later (and the server checks again then).
        if !(usesSimulator && apps.isEmpty) { _ = try configuredWebhooks(now: Date()) }
        if let problem = limits.problem { throw ConfigurationError(problem) }
        guard (0...1_048_576).contains(cacheMegabytes) else {
            throw ConfigurationError("cacheMegabytes is \(cacheMegabytes); it must be from 0 (no caches) to 1048576")
        }
        guard (0...36_500).contains(rawEvidenceRetentionDays) else {
            throw ConfigurationError(
                "rawEvidenceRetentionDays is \(rawEvidenceRetentionDays); it must be from 0 (keep for good) to 36500")
        }
        guard (1...100_000_000).contains(maximumAttributeGuests) else {
            throw ConfigurationError(
                "maximumAttributeGuests is \(maximumAttributeGuests); it must be from 1 to 100000000")
        }
        guard leaseSeconds >= 2, leaseSeconds <= 3_600 else {
            throw ConfigurationError("leaseSeconds is \(leaseSeconds); it must be from 2 to 3600")
        }
        _ = try AnswerSigner(privateKeys: answerSigningKeys)
        for (bundleID, rules) in retentionRules.sorted(by: { $0.key < $1.key }) {
            guard apps.contains(where: { $0.bundleID == bundleID }) || (usesSimulator && apps.isEmpty) else {
                throw ConfigurationError("retentionRules: \"\(bundleID.prefix(100))\" is not an app under apps")
            }
            do { _ = try RetentionCheck.checked(rules, catalog: engine.productIDs) } catch let error as ServiceError {
                throw ConfigurationError("retentionRules.\(bundleID): \(error.message)")
            }
        }
        try apple.check()
        try polling.check()
        try webhookDelivery.check()
        try metrics.check()
        for app in apps where app.allowXcode == true && app.environment == "Production" {
            throw ConfigurationError(
                "apps: \(app.bundleID) has allowXcode with environment Production; Xcode-signed evidence proves no "
                    + "purchase, so it is accepted only on a development or Sandbox app")
        }
        let demoMode = usesSimulator && apps.count == 1 && apps.first?.bundleID == Self.demoBundleID
        for key in apiKeys {
            guard apps.contains(where: { $0.bundleID == key.bundleID }) else {
                throw ConfigurationError(
                    "apiKeys: a \(key.kind.rawValue) key is for app \"\(key.bundleID)\", which is not under apps")
            }
            if key.kind == .public, let scope = key.scope {
                throw ConfigurationError(
                    "apiKeys: the public key for \(key.bundleID) has scope \"\(scope.rawValue)\"; only a secret key has a "
                        + "scope (a public key calls the SDK's routes alone)")
            }
            let isDemoKey = key.key == Self.demoPublicKey || key.key == Self.demoSecretKey
            guard key.key.count >= Self.minimumKeyLength || (demoMode && isDemoKey) else {
                throw ConfigurationError(
                    "apiKeys: the \(key.kind.rawValue) key for \(key.bundleID) starting \"\(key.key.prefix(3))…\" has \(key.key.count) characters; "
                        + "at least \(Self.minimumKeyLength) are required (storekeeper keys new \(key.kind.rawValue) prints one)"
                )
            }
        }
    }

    /// What secrets the configuration holds, named (never shown), or `nil` when it holds none: API keys, webhook
    /// secrets, apps' shared secrets and private keys, a database password.
    public var secretsHeld: String? {
        var held: [String] = []
        if !apiKeys.isEmpty { held.append("apiKeys") }
        if metrics.token != nil { held.append("metricsToken") }
        if !answerSigningKeys.isEmpty { held.append("answerSigningKeys") }
        if !webhooks.isEmpty { held.append("webhooks' secrets") }
        if apps.contains(where: { $0.sharedSecret != nil }) { held.append("sharedSecret") }
        if apps.contains(where: { $0.privateKeyPEM != nil || $0.offerPrivateKeyPEM != nil }) {
            held.append("private keys")
        }
        if let url = databaseURL.flatMap(URLComponents.init(string:)), url.password?.isEmpty == false {
            held.append("the databaseURL password")
        }
        return held.isEmpty ? nil : held.joined(separator: ", ")
    }

    /// The project of every configured app (bundle id → project), with the configuration's projects checked.
    /// - Returns: One entry per configured app.
    /// - Throws: ``ConfigurationError`` naming the project or app: an invalid project id, an app in two projects, a
    ///   project naming an app that is not configured.
    public func projectScopes() throws -> [String: ProjectScope] {
        var scopes: [String: ProjectScope] = [:]
        let configured = Set(apps.map(\.bundleID))
        for project in projects {
            let scope: ProjectScope
            do { scope = try ProjectScope(project.id) } catch { throw ConfigurationError("projects: \(error)") }
            for bundleID in project.apps {
                guard configured.contains(bundleID) else {
                    throw ConfigurationError(
                        "projects: project \"\(project.id)\" lists app \"\(bundleID)\", which is not under apps")
                }
                guard scopes[bundleID] == nil else {
                    throw ConfigurationError(
                        "projects: app \"\(bundleID)\" is in two projects (\"\(scopes[bundleID]!.id)\" and \"\(project.id)\")"
                    )
                }
                scopes[bundleID] = scope
            }
        }
        for app in apps where scopes[app.bundleID] == nil {
            do { scopes[app.bundleID] = try ProjectScope(app.bundleID) } catch {
                throw ConfigurationError(
                    "apps: bundle id \"\(app.bundleID.prefix(100))\" is not a valid project id; list it in a project")
            }
        }
        try Self.refuseCaseTwins(Set(scopes.values.map(\.id)))
        return scopes
    }

    /// Refuses two project ids that differ only in ASCII case (`alpha` and `Alpha`): one database's text matching
    /// folds case where another's does not, and an operator reading ids would take them for one project.
    /// - Parameter ids: The projects' ids (explicit projects and bundle ids forming default projects alike).
    /// - Throws: ``ConfigurationError`` naming both ids.
    static func refuseCaseTwins(_ ids: Set<String>) throws {
        var seen: [String: String] = [:]
        for id in ids.sorted() {
            let folded = id.lowercased()  // a project id is ASCII (ProjectScope), so this folds ASCII case only
            if let twin = seen[folded] {
                throw ConfigurationError(
                    "projects: \"\(twin)\" and \"\(id)\" differ only in case; project ids (and bundle ids forming "
                        + "default projects) must differ in more than case")
            }
            seen[folded] = id
        }
    }
}
