import Foundation

/// The schema: versioned migrations, each applied once in its own transaction.
extension SQLStore {
    /// The schema version this build writes and reads (its last migration).
    public static let schemaVersion = 25

    /// Applies every migration not yet applied, in order, each in its own transaction.
    @discardableResult
    public func migrate() async throws -> Int { try await migrate(projects: [:]) }

    /// The schema version in place: the highest migration applied (0 for an empty database).
    public func appliedSchemaVersion() async throws -> Int {
        let row = try await database.read("SELECT max(version) AS version FROM schema_migrations", []).first
        return Int(row?["version"]?.int ?? 0)
    }

    /// Applies every migration not yet applied, in order, each in its own transaction.
    /// - Parameters:
    ///   - projects: The project of each app that groups apps (bundle id → project), for rows written before
    ///     projects existed (migration 5); an app not listed is a project of its own, named by its bundle id.
    ///   - last: Stop after this version (tests of one migration start from the schema before it).
    /// - Returns: The schema version now in place.
    @discardableResult
    public func migrate(projects: [String: ProjectScope], through last: Int = .max) async throws -> Int {
        let autoIncrement = database.dialect.autoIncrementKey
        let migrations: [[String]] = [
            [
                "CREATE TABLE subscribers (app_user_id TEXT PRIMARY KEY, bundle_id TEXT NOT NULL, evidence_json TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)",
                "CREATE TABLE aliases (alias TEXT PRIMARY KEY, app_user_id TEXT NOT NULL)",
                "CREATE INDEX aliases_user ON aliases (app_user_id)",
                "CREATE TABLE ownership (original_transaction_id TEXT PRIMARY KEY, app_user_id TEXT NOT NULL, bundle_id TEXT NOT NULL)",
                "CREATE INDEX ownership_user ON ownership (app_user_id)",
                "CREATE TABLE evidence (id \(autoIncrement), digest TEXT NOT NULL UNIQUE, bundle_id TEXT NOT NULL, kind TEXT NOT NULL, received_at TEXT NOT NULL, body TEXT NOT NULL)",
                "CREATE TABLE notifications (notification_id TEXT PRIMARY KEY, bundle_id TEXT NOT NULL, type TEXT NOT NULL, status TEXT NOT NULL, received_at TEXT NOT NULL, evidence_id BIGINT, original_transaction_ids TEXT NOT NULL, pending_json TEXT)",
                "CREATE INDEX notifications_status ON notifications (status)",
                "CREATE TABLE events (id \(autoIncrement), app_user_id TEXT NOT NULL, created_at TEXT NOT NULL, type TEXT NOT NULL, cause TEXT NOT NULL, cause_id TEXT, evidence_id BIGINT, detail_json TEXT NOT NULL)",
                "CREATE INDEX events_user ON events (app_user_id, id)",
                "CREATE TABLE api_keys (key_hash TEXT PRIMARY KEY, kind TEXT NOT NULL, bundle_id TEXT NOT NULL)",
            ],
            // 2: PostgreSQL keeps rows up to a page inline and stores larger JSON and raw evidence out of line
            // without compressing it (signed tokens barely compress; pglz and TOAST writes on every
            // notification cost more CPU than the statements themselves).
            database.dialect.storageTuning([
                "ALTER TABLE evidence ALTER COLUMN body SET STORAGE EXTERNAL",
                "ALTER TABLE subscribers ALTER COLUMN evidence_json SET STORAGE EXTERNAL",
                "ALTER TABLE notifications ALTER COLUMN pending_json SET STORAGE EXTERNAL",
                "ALTER TABLE evidence SET (toast_tuple_target = 8160)",
                "ALTER TABLE subscribers SET (toast_tuple_target = 8160)",
                "ALTER TABLE notifications SET (toast_tuple_target = 8160)",
            ]),
            // 3: PostgreSQL announces every committed change of a subscriber row, so every server process can
            // drop what it derived from the old row (see SubscriberChanges).
            database.dialect.changeAnnouncement([
                "CREATE OR REPLACE FUNCTION storekeeper_subscriber_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('\(Self.changeChannel)', COALESCE(NEW.app_user_id, OLD.app_user_id)); RETURN NULL; END $$",
                "CREATE TRIGGER subscribers_changed AFTER INSERT OR UPDATE OR DELETE ON subscribers FOR EACH ROW EXECUTE FUNCTION storekeeper_subscriber_changed()",
            ]),
            // 4: Only parked notifications are ever looked up by status, and they are few: index just those (in
            // the order they are applied), so storing an applied notification no longer writes a status entry.
            [
                "DROP INDEX notifications_status",
                "CREATE INDEX notifications_pending ON notifications (received_at, notification_id) WHERE status = 'pending'",
            ],
            // 5: Tenants. Every subscriber, alias, subscription and event moves into the project of the app that
            // wrote it: keys become `project:id` (see ProjectScope).
            Self.projectMigration(projects),
            // 6: The outbox. What was last announced about each subscriber (and when the clock may change it), the
            // owner's webhook endpoints, the announced events and one delivery per endpoint and event.
            [
                "CREATE TABLE announced (app_user_id TEXT PRIMARY KEY, state_json TEXT NOT NULL, due_at TEXT)",
                "CREATE INDEX announced_due ON announced (due_at) WHERE due_at IS NOT NULL",
                "CREATE TABLE webhook_endpoints (id TEXT PRIMARY KEY, project TEXT NOT NULL, url TEXT NOT NULL, event_types TEXT NOT NULL, secret TEXT NOT NULL, created_at TEXT NOT NULL)",
                "CREATE INDEX webhook_endpoints_project ON webhook_endpoints (project)",
                "CREATE TABLE webhook_events (id TEXT PRIMARY KEY, project TEXT NOT NULL, app_user_id TEXT NOT NULL, type TEXT NOT NULL, created_at TEXT NOT NULL, body TEXT NOT NULL)",
                "CREATE INDEX webhook_events_user ON webhook_events (app_user_id, created_at)",
                "CREATE TABLE webhook_deliveries (id \(autoIncrement), event_id TEXT NOT NULL, endpoint_id TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL, next_attempt_at TEXT NOT NULL, lease_until TEXT, last_attempt_at TEXT, last_result TEXT, delivered_at TEXT)",
                "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'",
                "CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id)",
                "CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)",
            ],
            // 7: Status polling. When each subscriber is next asked about at Apple (set by every write's
            // announcement), and the lease of the worker asking.
            [
                "ALTER TABLE announced ADD COLUMN poll_at TEXT",
                "ALTER TABLE announced ADD COLUMN poll_lease TEXT",
                "CREATE INDEX announced_poll ON announced (poll_at) WHERE poll_at IS NOT NULL",
            ],
            // 8: History. Observations a write folds out of a subscriber's row because no answer from then on
            // depends on them (past periods, replaced renewal info), one row each, kept once (keyed by digest) for
            // the answers about the past; the subscriber's row stays the size of what still matters.
            [
                "CREATE TABLE evidence_history (digest TEXT PRIMARY KEY, app_user_id TEXT NOT NULL, evidence_json TEXT NOT NULL)",
                "CREATE INDEX evidence_history_user ON evidence_history (app_user_id)",
            ],
            // 9: Raw evidence stored once. The certificate chain every signed header repeats is kept once in
            // evidence_parts (by SHA-256); a body stored `compact` refers to it and is rebuilt byte for byte
            // (RawEvidenceCodec). Rows stored before stay as they are (form NULL: the raw text). PostgreSQL
            // compresses raw evidence and history rows that pass its TOAST threshold (about 2 kB: large receipts)
            // with lz4, fast enough for every write, instead of storing them uncompressed.
            [
                "CREATE TABLE evidence_parts (digest TEXT PRIMARY KEY, body TEXT NOT NULL)",
                "ALTER TABLE evidence ADD COLUMN form TEXT",
            ]
                + database.dialect.storageTuning([
                    "ALTER TABLE evidence ALTER COLUMN body SET STORAGE EXTENDED",
                    "ALTER TABLE evidence ALTER COLUMN body SET COMPRESSION lz4",
                    "ALTER TABLE evidence SET (toast_tuple_target = 1024)",
                    "ALTER TABLE evidence_history ALTER COLUMN evidence_json SET COMPRESSION lz4",
                    "ALTER TABLE evidence_history SET (toast_tuple_target = 256)",
                ]),
            // 10: An event's body (the subscriber document of its moment, about 2 kB) passes PostgreSQL's TOAST
            // threshold and was compressed with pglz inside the write's own statement: lz4 instead, several times
            // faster for about the same size.
            database.dialect.storageTuning(["ALTER TABLE webhook_events ALTER COLUMN body SET COMPRESSION lz4"]),
            // 11: Deliveries leased per endpoint (at most so many of one endpoint in flight): each endpoint's due
            // deliveries in order, and each endpoint's leased ones, so neither read walks another's backlog.
            [
                "CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, next_attempt_at, id) WHERE status = 'pending'",
                "CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id, lease_until) WHERE status = 'pending' AND lease_until IS NOT NULL",
            ],
            // 12: The event feed (`GET /v1/events`): each event records the transaction that wrote it, and is read
            // in (transaction, id) order behind the oldest running transaction, so no event is passed before it
            // commits. Events written before this migration share one transaction id and keep their id order.
            [
                "ALTER TABLE events ADD COLUMN tx \(database.dialect.writingTransactionColumn)",
                "CREATE INDEX events_feed ON events (tx, id)",
            ],
            // 13: Project settings the owner edits through the API (offerings, the current offering), one JSON
            // document per project, kind and name; on PostgreSQL every committed change is announced with the
            // project's id, so every server process reads that project's settings again (see SettingStore).
            [
                "CREATE TABLE project_settings (project TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, body TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (project, kind, name))"
            ]
                + database.dialect.changeAnnouncement([
                    "CREATE OR REPLACE FUNCTION storekeeper_setting_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('\(SQLSettingStore.channel)', COALESCE(NEW.project, OLD.project)); RETURN NULL; END $$",
                    "CREATE TRIGGER project_settings_changed AFTER INSERT OR UPDATE OR DELETE ON project_settings FOR EACH ROW EXECUTE FUNCTION storekeeper_setting_changed()",
                ]),
            // 14: Experiment enrolments: the variant each customer key was assigned, once (the first write wins),
            // listed per experiment in enrolment order (the id breaks ties of the same instant) for its results.
            [
                "CREATE TABLE experiment_enrolments (id \(autoIncrement), project TEXT NOT NULL, experiment TEXT NOT NULL, app_user_id TEXT NOT NULL, variant TEXT NOT NULL, enrolled_at TEXT NOT NULL, UNIQUE (project, experiment, app_user_id))",
                "CREATE INDEX experiment_enrolments_order ON experiment_enrolments (project, experiment, enrolled_at, id)",
            ],
            // 15: Subscriber attributes, one row per canonical customer and name; on PostgreSQL a change is announced
            // on the subscribers' channel, so every server process reads the customer's attributes again.
            [
                "CREATE TABLE subscriber_attributes (app_user_id TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (app_user_id, name))"
            ]
                + database.dialect.changeAnnouncement([
                    "CREATE OR REPLACE FUNCTION storekeeper_attribute_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('\(Self.changeChannel)', COALESCE(NEW.app_user_id, OLD.app_user_id)); RETURN NULL; END $$",
                    "CREATE TRIGGER subscriber_attributes_changed AFTER INSERT OR UPDATE OR DELETE ON subscriber_attributes FOR EACH ROW EXECUTE FUNCTION storekeeper_attribute_changed()",
                ]),
            // 16: Retention Messaging's answers, one row per real-time request, read by the retention metrics by
            // project and time (the exchanges' events stay on the customers; answers recorded before this version
            // are not counted: their events do not name the subscription).
            [
                "CREATE TABLE retention_answers (id \(autoIncrement), project TEXT NOT NULL, answered_at TEXT NOT NULL, original_transaction_id TEXT NOT NULL, product_id TEXT NOT NULL, rule TEXT, kind TEXT NOT NULL, environment TEXT NOT NULL)",
                "CREATE INDEX retention_answers_time ON retention_answers (project, answered_at, id)",
            ],
            // 17: Metric rollups: a project's per-day metric inputs by every split dimension, in millionths, and
            // each subscriber's contribution to them (changed by every write that changes the subscriber); a
            // project's build, with the proceeds rules it was counted with, says its rollups are whole.
            [
                "CREATE TABLE metric_rollups (project TEXT NOT NULL, metric TEXT NOT NULL, day INTEGER NOT NULL, product TEXT NOT NULL, storefront TEXT NOT NULL, environment TEXT NOT NULL, offer_type TEXT NOT NULL, series TEXT NOT NULL, col INTEGER NOT NULL, value BIGINT NOT NULL, PRIMARY KEY (project, metric, day, product, storefront, environment, offer_type, series, col))",
                "CREATE TABLE metric_contributions (app_user_id TEXT PRIMARY KEY, contribution TEXT NOT NULL)",
                "CREATE TABLE metric_rollup_builds (project TEXT PRIMARY KEY, rules TEXT NOT NULL, built_at TEXT NOT NULL)",
            ],
            // 18: Rollups keep per customer its contribution's fingerprint and its folded history as runs, no longer
            // every row it contributes (a write then costs the same however long the history), and some metrics'
            // rows also with their dimensions collapsed; rollups kept before are built again by the next server.
            [
                "DROP TABLE metric_contributions",
                "CREATE TABLE metric_customers (app_user_id TEXT PRIMARY KEY, fingerprint BIGINT NOT NULL, folded TEXT NOT NULL)",
                "DELETE FROM metric_rollups", "DELETE FROM metric_rollup_builds",
                // A query without a split reads the rows kept with every dimension collapsed (`*`).
                "CREATE INDEX metric_rollups_collapsed ON metric_rollups (project, metric, day) WHERE product = '*'",
            ],
            // 19: Each attribute says who set it: `client` (a public key) or `server` (a secret key). Rows from
            // before cannot say, so they count as the app's: the backend sets them again to protect them.
            ["ALTER TABLE subscriber_attributes ADD COLUMN source TEXT NOT NULL DEFAULT 'client'"],
            // 20: Experiment results as rollups: each experiment's sums by variant (with the mark they were counted
            // with and how far through the event feed they are current) and each enrolment's outcome row.
            [
                "CREATE TABLE experiment_tallies (project TEXT NOT NULL, experiment TEXT NOT NULL, mark TEXT NOT NULL, generation TEXT NOT NULL, cursor_tx TEXT, cursor_id BIGINT, ready INTEGER NOT NULL, variants TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (project, experiment))",
                "CREATE TABLE experiment_outcomes (project TEXT NOT NULL, experiment TEXT NOT NULL, app_user_id TEXT NOT NULL, variant TEXT NOT NULL, counted INTEGER NOT NULL, evidenced INTEGER NOT NULL, trial INTEGER NOT NULL, converted INTEGER NOT NULL, revenue BIGINT NOT NULL, proceeds BIGINT NOT NULL, refunds BIGINT NOT NULL, PRIMARY KEY (project, experiment, app_user_id))",
            ],
            // 21: Each key's scope (`read`, `support`, `admin`); keys stored before were allowed everything, and the
            // next start writes every configured key's scope again.
            ["ALTER TABLE api_keys ADD COLUMN scope TEXT NOT NULL DEFAULT 'admin'"],
            // 22: Support's search finds a customer by an attribute's value (`$email`) without reading them all.
            ["CREATE INDEX subscriber_attributes_value ON subscriber_attributes (name, value)"],
            // 23: The audit log: who changed what with a secret key or through the dashboard, appended in the change's
            // own transaction and read by project in id order.
            [
                "CREATE TABLE audit_log (id \(autoIncrement), project TEXT NOT NULL, at TEXT NOT NULL, actor TEXT NOT NULL, address TEXT, route TEXT NOT NULL, target TEXT, summary TEXT NOT NULL)",
                "CREATE INDEX audit_log_project ON audit_log (project, id)",
            ],
            // 24: Apple's real-time retention requests admitted, by requestIdentifier, so every replica refuses a
            // replay (kept for twice the five-minute window their signedDate must fall in, then forgotten).
            [
                "CREATE TABLE retention_requests (request_id TEXT PRIMARY KEY, admitted_at TEXT NOT NULL)",
                "CREATE INDEX retention_requests_time ON retention_requests (admitted_at)",
            ],
            // 25: support's requests to extend every active subscriber of a product (Apple's mass extension), by
            // project and id, so their status can be asked of Apple later (Apple needs the product and the id).
            [
                "CREATE TABLE mass_extensions (project TEXT NOT NULL, id TEXT NOT NULL, bundle_id TEXT NOT NULL, product_id TEXT NOT NULL, days INTEGER NOT NULL, reason TEXT NOT NULL, storefronts TEXT NOT NULL, requested_at TEXT NOT NULL, PRIMARY KEY (project, id))"
            ],
        ]
        _ = try await database.withTransaction { tx in
            try await tx.query(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
                [])
        }
        var version = 0
        for (index, statements) in migrations.enumerated() where index < last {
            let number = Int64(index + 1)
            try await database.withTransaction { tx in
                let rows = try await tx.query(
                    "SELECT version FROM schema_migrations WHERE version = ?", [.integer(number)])
                guard rows.isEmpty else { return }
                for statement in statements { try await tx.query(statement, []) }
                try await tx.query(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                    [.integer(number), .text(Self.timestamp(Date()))])
            }
            version = Int(number)
        }
        return version
    }

    /// Migration 5's statements: qualify every stored key by its project.
    static func projectMigration(_ projects: [String: ProjectScope]) -> [String] {
        // Bundle ids and project ids are plain `A–Z a–z 0–9 . _ -` (anything else is skipped and the app stays its
        // own project), so they are written into the statements as literals.
        let rows = projects.filter { ProjectScope.isValid($0.key) }.sorted { $0.key < $1.key }
        func project(ofBundle bundle: String) -> String {
            "COALESCE((SELECT project_id FROM migration_projects WHERE bundle_id = \(bundle)), \(bundle))"
        }
        func project(ofUser user: String, orBundle fallback: String) -> String {
            "COALESCE((SELECT \(project(ofBundle: "s.bundle_id")) FROM subscribers s WHERE s.app_user_id = \(user)), \(fallback))"
        }
        let ownerBundle = "(SELECT o.bundle_id FROM ownership o WHERE o.app_user_id = events.app_user_id LIMIT 1)"
        let aliasProject = project(ofUser: "aliases.app_user_id", orBundle: "'unassigned'")
        let ownershipProject = project(
            ofUser: "ownership.app_user_id", orBundle: project(ofBundle: "ownership.bundle_id"))
        let notificationProject = project(ofBundle: "notifications.bundle_id")
        return ["CREATE TABLE migration_projects (bundle_id TEXT PRIMARY KEY, project_id TEXT NOT NULL)"]
            + rows.map {
                "INSERT INTO migration_projects (bundle_id, project_id) VALUES ('\($0.key)', '\($0.value.id)')"
            }
            + [
                "UPDATE events SET app_user_id = "
                    + project(
                        ofUser: "events.app_user_id",
                        orBundle: "COALESCE(\(project(ofBundle: ownerBundle)), 'unassigned')")
                    + " || ':' || app_user_id",
                "UPDATE aliases SET alias = \(aliasProject) || ':' || alias, app_user_id = \(aliasProject) || ':' || app_user_id",
                "UPDATE ownership SET original_transaction_id = \(ownershipProject) || ':' || original_transaction_id, "
                    + "app_user_id = \(ownershipProject) || ':' || app_user_id",
                "UPDATE notifications SET original_transaction_ids = \(notificationProject) || ':' || "
                    + "REPLACE(original_transaction_ids, ',', ',' || \(notificationProject) || ':') WHERE original_transaction_ids <> ''",
                "UPDATE subscribers SET app_user_id = " + project(ofBundle: "subscribers.bundle_id")
                    + " || ':' || app_user_id",
                "DROP TABLE migration_projects",
            ]
    }
}
