import AppStoreModels
import AppStoreVerification
public import Foundation
import StoreKeeperWire

/// Recognises a piece of App Store evidence, verifies it, and reports what it says.
///
/// Recognised: base64 or DER app receipts, StoreKit 2 signed transactions / renewal info / app transactions,
/// V2 notification bodies and bare `signedPayload`s, V1 notification bodies, verifyReceipt responses, and
/// verifyReceipt requests (their `receipt-data` is inspected). Nothing here throws: every outcome, malformed
/// input included, is a report.
///
/// ```swift
/// let report = await EvidenceInspector().inspect(Array(fileContents))
/// print(report.valid, report.kind)
/// ```
public struct EvidenceInspector: Sendable {
    /// What the inspector trusts.
    public struct Configuration: Sendable {
        /// Whether Xcode-signed JWS and Xcode receipts are accepted (through their own verifiers). Default `false`.
        public var allowsXcode = false
        /// A fixed validation time instead of `signedDate` / receipt creation date. Default `nil`.
        public var validationTime: Date? = nil
        /// Extra DER roots trusted for both JWS and receipts (e.g. the simulator's). Default none.
        public var additionalRoots: [[UInt8]] = []

        /// The defaults: Apple's roots only, no Xcode, Apple's offline validation times.
        public init() {}
    }

    /// The configuration.
    public let configuration: Configuration
    let signedDataVerifier: AppStoreSignedDataVerifier
    let receiptVerifier: AppReceiptVerifier

    /// Makes an inspector.
    /// - Parameter configuration: What to trust.
    /// - Throws: ``VerificationError/Code/malformedCertificate`` when an additional root does not parse.
    public init(configuration: Configuration = .init()) throws {
        self.configuration = configuration
        signedDataVerifier = try AppStoreSignedDataVerifier(
            configuration: .init(
                rootCertificates: [AppleRootCertificates.appleRootCAG3] + configuration.additionalRoots,
                validationTime: configuration.validationTime))
        receiptVerifier = try AppReceiptVerifier(
            configuration: .init(
                rootCertificates: [AppleRootCertificates.appleIncRoot] + configuration.additionalRoots,
                allowsXcodeReceipts: configuration.allowsXcode, validationTime: configuration.validationTime))
    }

    /// Inspects input bytes.
    /// - Parameter input: A file's contents.
    /// - Returns: The report.
    public func inspect(_ input: [UInt8]) async -> InspectionReport {
        let trimmed = Self.trimmed(input)
        guard let first = trimmed.first else {
            return .failure(.unknown, code: .unrecognizedInput, message: "the input is empty")
        }
        if first == UInt8(ascii: "{") { return await inspectJSON(Array(trimmed)) }
        if first == 0x30 { return await inspectReceipt(der: Array(trimmed)) }
        let text = String(decoding: trimmed, as: UTF8.self)
        if text.utf8.filter({ $0 == UInt8(ascii: ".") }).count == 2 { return await inspectJWS(text, kind: nil) }
        guard let der = Base64.decode(text, ignoringWhitespace: true), !der.isEmpty else {
            return .failure(
                .unknown, code: .unrecognizedInput,
                message: "the input is not JSON, a compact JWS, base64 or DER")
        }
        return await inspectReceipt(der: der)
    }

    // MARK: - JSON inputs

    func inspectJSON(_ bytes: [UInt8]) async -> InspectionReport {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            return .failure(.unknown, code: .malformed, message: "the input starts with '{' but is not a JSON object")
        }
        if let signedPayload = object["signedPayload"] as? String {
            return await inspectJWS(signedPayload, kind: .notificationV2)
        }
        if object["notification_type"] != nil { return await inspectNotificationV1(bytes, object) }
        if let receiptData = object["receipt-data"] as? String {
            guard let der = Base64.decode(receiptData, ignoringWhitespace: true), !der.isEmpty else {
                return .failure(.receipt, code: .malformed, message: "receipt-data is not base64")
            }
            return await inspectReceipt(der: der)
        }
        if object["status"] != nil { return inspectVerifyReceiptResponse(bytes, object) }
        return .failure(
            .unknown, code: .unrecognizedInput,
            message: "JSON object with none of signedPayload, notification_type, receipt-data, status")
    }

    func inspectNotificationV1(_ bytes: [UInt8], _ object: [String: Any]) async -> InspectionReport {
        var redacted = object
        if redacted["password"] != nil { redacted["password"] = "<redacted>" }
        let body: NotificationV1Body
        do { body = try JSONDecoder().decode(NotificationV1Body.self, from: Data(bytes)) } catch {
            return .failure(.notificationV1, code: .malformedPayload, message: Self.describe(error))
        }
        var report = InspectionReport(
            kind: .notificationV1, valid: true, environment: body.environment?.rawValue, payload: JSONObject(redacted))
        var withoutSecret = body
        withoutSecret.password = nil
        report.evidence = .notificationV1(withoutSecret)
        report.facts = [
            ("type", body.notificationType.rawValue), ("bundle id", body.bid ?? "-"),
            ("transactions", "\(body.unifiedReceipt?.latestReceiptInfo?.count ?? 0) in unified_receipt"),
            ("signature", "none (V1 is authenticated by the shared secret in password)"),
        ]
        if let latest = body.unifiedReceipt?.latestReceipt {
            do {
                let verified = try await receiptVerifier.verify(base64: latest)
                report.facts.append(
                    ("receipt", "latest_receipt verifies: \(verified.receipt.inAppPurchases.count) in-app"))
            } catch let error as VerificationError {
                report.valid = false
                report.error = .init(
                    code: .verification(error.code), message: "unified_receipt.latest_receipt: \(error.reason)")
            } catch {
                report.valid = false
                report.error = .init(code: .malformed, message: "\(error)")
            }
        }
        return report
    }

    func inspectVerifyReceiptResponse(_ bytes: [UInt8], _ object: [String: Any]) -> InspectionReport {
        let response: VerifyReceiptResponse
        do { response = try JSONDecoder().decode(VerifyReceiptResponse.self, from: Data(bytes)) } catch {
            return .failure(.verifyReceiptResponse, code: .malformedPayload, message: Self.describe(error))
        }
        let accepted = [VerifyReceiptStatus.valid, VerifyReceiptStatus.subscriptionExpired].contains(response.status)
        var report = InspectionReport(
            kind: .verifyReceiptResponse, valid: accepted, environment: response.environment?.rawValue,
            payload: JSONObject(object))
        report.evidence = .verifyReceiptResponse(response)
        if !accepted {
            report.error = .init(
                code: .appleStatus(response.status),
                message: "verifyReceipt status \(response.status): \(VerifyReceiptStatus.explanation(response.status))")
        }
        let transactions = response.receipt?.inApp?.count ?? (response.legacyReceipt == nil ? 0 : 1)
        report.facts = [
            ("status", "\(response.status) (\(VerifyReceiptStatus.explanation(response.status)))"),
            ("bundle id", response.receipt?.bundleId ?? response.legacyReceipt?.bid ?? "-"),
            ("in_app", "\(transactions)"),
            ("latest", "\(response.latestReceiptInfo?.count ?? 0) in latest_receipt_info"),
        ]
        return report
    }

    // MARK: - Receipts

    func inspectReceipt(der: [UInt8]) async -> InspectionReport {
        do {
            let verified = try await receiptVerifier.verify(der: der)
            let receipt = verified.receipt
            let data = try JSONEncoder().encode(verified.receiptInfo)
            let payload = try JSONSerialization.jsonObject(with: data)
            let environment =
                switch receipt.receiptType {
                case "ProductionSandbox": "Sandbox"
                case let other: other
                }
            var report = InspectionReport(
                kind: .receipt, valid: true, environment: environment, payload: JSONObject(payload))
            report.evidence = .receipt(verified.receiptInfo)
            report.facts = [
                ("bundle id", receipt.bundleID ?? "-"), ("app version", receipt.appVersion ?? "-"),
                ("created", receipt.creationDate.map(AppleDateFormat.rfc3339) ?? "-"),
                ("in-app", "\(receipt.inAppPurchases.count)"), ("signature", verified.signatureAlgorithm),
                ("root", verified.chain.root.subject.description),
            ]
            return report
        } catch let error as VerificationError {
            return .failure(.receipt, code: .verification(error.code), message: error.reason)
        } catch {
            return .failure(.receipt, code: .malformed, message: "\(error)")
        }
    }

    // MARK: - Signed data

    func inspectJWS(_ token: String, kind declared: EvidenceKind?) async -> InspectionReport {
        let kind = declared ?? Self.peekKind(token)
        let verifier: any SignedDataVerifying
        let chainLength = (try? CompactJWS(token))?.certificateChain.count
        if configuration.allowsXcode, chainLength == 1 {
            verifier = XcodeSignedDataVerifier()
        } else {
            verifier = signedDataVerifier
        }
        do {
            let verified = try await verifier.verify(token)
            var payload = try JSONSerialization.jsonObject(with: Data(verified.payload)) as? [String: Any] ?? [:]
            var facts: [(String, String)] = []
            var evidence: InspectedEvidence?
            switch kind {
            case .notificationV2:
                let notification = try await verifier.verifyNotification(token)
                evidence = .notificationV2(notification)
                var data = payload["data"] as? [String: Any] ?? [:]
                for key in ["signedTransactionInfo", "signedRenewalInfo"] {
                    if let nested = data[key] as? String {
                        let bytes = try await verifier.verify(nested).payload
                        data[key] = try JSONSerialization.jsonObject(with: Data(bytes))
                    }
                }
                if payload["data"] != nil { payload["data"] = data }
                facts = [
                    ("type", notification.payload.notificationType.rawValue),
                    ("subtype", notification.payload.subtype?.rawValue ?? "-"),
                    ("uuid", notification.payload.notificationUUID),
                    ("bundle id", notification.payload.data?.bundleId ?? "-"),
                ]
            case .jwsTransaction:
                let transaction = try await verifier.verifyTransaction(token)
                evidence = .transaction(transaction)
                facts = [
                    ("product", transaction.productId), ("transaction", transaction.transactionId),
                    ("original", transaction.originalTransactionId), ("type", transaction.type?.rawValue ?? "-"),
                    ("expires", transaction.expiresDate.map(AppleDateFormat.rfc3339) ?? "-"),
                ]
            case .jwsRenewalInfo:
                let info = try await verifier.verifyRenewalInfo(token)
                evidence = .renewalInfo(info)
                facts = [
                    ("product", info.productId ?? "-"), ("renews to", info.autoRenewProductId ?? "-"),
                    ("auto-renew", info.autoRenewStatus.map { $0 == .on ? "on" : "off" } ?? "-"),
                ]
            case .jwsAppTransaction:
                let app = try await verifier.verifyAppTransaction(token)
                evidence = .appTransaction(app)
                facts = [("bundle id", app.bundleId ?? "-"), ("version", app.applicationVersion ?? "-")]
            default:
                break
            }
            facts.append(("signed", verified.signedDate.map(AppleDateFormat.rfc3339) ?? "-"))
            facts.append(
                ("chain", verified.isXcodeSigned ? "Xcode self-signed (allowed by --allow-xcode)" : "pinned root"))
            let environment =
                payload["environment"] as? String ?? (payload["data"] as? [String: Any])?["environment"] as? String
            var report = InspectionReport(
                kind: kind, valid: true, environment: environment, payload: JSONObject(payload))
            report.facts = facts
            report.evidence = evidence
            return report
        } catch let error as VerificationError {
            var report = InspectionReport.failure(kind, code: .verification(error.code), message: error.reason)
            if error.code == .xcodeNotAllowed { report.error?.message += " (pass --allow-xcode to accept it)" }
            return report
        } catch {
            return .failure(kind, code: .malformedPayload, message: Self.describe(error))
        }
    }

    /// Guesses the kind from the unverified payload, only to choose how to present it; the verdict still
    /// comes from verification.
    static func peekKind(_ token: String) -> EvidenceKind {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64.decode(parts[1]),
            let payload = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        else { return .unknown }
        if payload["notificationType"] != nil { return .notificationV2 }
        if payload["transactionId"] != nil { return .jwsTransaction }
        if payload["autoRenewStatus"] != nil || payload["autoRenewProductId"] != nil
            || payload["originalTransactionId"] != nil
        {
            return .jwsRenewalInfo
        }
        if payload["receiptType"] != nil || payload["appTransactionId"] != nil || payload["bundleId"] != nil {
            return .jwsAppTransaction
        }
        return .unknown
    }

    static func trimmed(_ input: [UInt8]) -> ArraySlice<UInt8> {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        // Raw DER must not be trimmed: its last bytes may be anything.
        if input.first == 0x30 { return input[...] }
        var slice = input[...]
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? VerificationError { return error.reason }
        if let error = error as? DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                return "missing field \((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))"
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                return
                    "field \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
            @unknown default: return "\(error)"
            }
        }
        return "\(error)"
    }
}

extension InspectionReport {
    static func failure(_ kind: EvidenceKind, code: InspectionReport.Failure.Code, message: String) -> InspectionReport
    {
        InspectionReport(
            kind: kind, valid: false, environment: nil, payload: nil, error: .init(code: code, message: message))
    }
}
