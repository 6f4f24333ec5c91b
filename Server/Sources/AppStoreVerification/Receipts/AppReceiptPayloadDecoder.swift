import AppStoreModels
import Foundation

/// Decodes the receipt payload ASN.1 (`SET OF ReceiptAttribute`) into an ``AppReceipt``.
///
/// Documented fields must have their documented ASN.1 type; undocumented ones are kept raw. Empty date
/// strings (Apple writes `""` for "no date") decode as absent.
public enum AppReceiptPayloadDecoder {
    /// The deepest nesting of in-app payloads accepted (receipts have one level).
    static let maximumNesting = 2

    /// Decodes a payload.
    /// - Parameter payload: The signed content of the receipt.
    /// - Returns: The receipt.
    /// - Throws: ``VerificationError/Code/malformed`` naming the attribute type that is wrong.
    public static func decode(_ payload: ArraySlice<UInt8>) throws -> AppReceipt {
        let reader = BERReader(bytes: Array(payload))
        let root = try reader.root("receipt payload")
        var receipt = AppReceipt()
        try forEachAttribute(reader, root, "receipt payload") { type, version, value in
            switch type {
            case 0: receipt.receiptType = try string(reader, value, type)
            case 1: receipt.appItemID = try integer(reader, value, type)
            case 2:
                receipt.bundleID = try string(reader, value, type)
                receipt.bundleIDData = Array(reader.bytes[value.contents])
            case 3: receipt.appVersion = try string(reader, value, type)
            case 4: receipt.opaqueValue = Array(reader.bytes[value.contents])
            case 5: receipt.sha1Hash = Array(reader.bytes[value.contents])
            case 12: receipt.creationDate = try date(reader, value, type)
            case 15: receipt.downloadID = try integer(reader, value, type)
            case 16: receipt.versionExternalIdentifier = try integer(reader, value, type)
            case 17: receipt.inAppPurchases.append(try inAppPurchase(reader, value))
            case 18: receipt.originalPurchaseDate = try date(reader, value, type)
            case 19: receipt.originalAppVersion = try string(reader, value, type)
            case 21: receipt.expirationDate = try date(reader, value, type)
            case 32: receipt.preorderDate = try date(reader, value, type)
            default:
                receipt.otherAttributes.append(
                    ReceiptAttribute(type: type, version: version, value: Array(reader.bytes[value.contents])))
            }
        }
        return receipt
    }

    static func inAppPurchase(_ outer: BERReader, _ value: BERElement) throws -> AppReceiptInAppPurchase {
        let set = try outer.element(
            at: value.contents.lowerBound, end: value.contents.upperBound, depth: 1, "in-app purchase")
        guard set.encoded.upperBound == value.contents.upperBound else {
            throw VerificationError(.malformed, "attribute 17: trailing bytes after the in-app purchase SET")
        }
        var purchase = AppReceiptInAppPurchase()
        try forEachAttribute(outer, set, "in-app purchase") { type, version, value in
            switch type {
            case 1701: purchase.quantity = try integer(outer, value, type)
            case 1702: purchase.productID = try string(outer, value, type)
            case 1703: purchase.transactionID = try string(outer, value, type)
            case 1704: purchase.purchaseDate = try date(outer, value, type)
            case 1705: purchase.originalTransactionID = try string(outer, value, type)
            case 1706: purchase.originalPurchaseDate = try date(outer, value, type)
            case 1707: purchase.productType = try integer(outer, value, type)
            case 1708: purchase.expiresDate = try date(outer, value, type)
            case 1711: purchase.webOrderLineItemID = try integer(outer, value, type)
            case 1712: purchase.cancellationDate = try date(outer, value, type)
            case 1713: purchase.isTrialPeriod = try integer(outer, value, type).map { $0 != 0 }
            case 1719: purchase.isInIntroOfferPeriod = try integer(outer, value, type).map { $0 != 0 }
            case 1721: purchase.promotionalOfferID = try string(outer, value, type)
            default:
                purchase.otherAttributes.append(
                    ReceiptAttribute(type: type, version: version, value: Array(outer.bytes[value.contents])))
            }
        }
        return purchase
    }

    /// Calls `body` with (type, version, value OCTET STRING) for each attribute of a SET.
    static func forEachAttribute(
        _ reader: BERReader, _ set: BERElement, _ what: @autoclosure () -> String,
        _ body: (Int64, Int64, BERElement) throws -> Void
    ) throws {
        guard set.isUniversal(BERElement.Universal.set) else {
            throw VerificationError(.malformed, "\(what()) is not a SET")
        }
        var offset = set.contents.lowerBound
        while offset < set.contents.upperBound {
            let attribute = try reader.element(at: offset, end: set.contents.upperBound, depth: 1, what())
            offset = attribute.encoded.upperBound
            guard attribute.isUniversal(BERElement.Universal.sequence) else {
                throw VerificationError(
                    .malformed, "\(what()): attribute at byte \(attribute.encoded.lowerBound) is not a SEQUENCE")
            }
            let type = try reader.element(
                at: attribute.contents.lowerBound, end: attribute.contents.upperBound, depth: 2, what())
            let version = try reader.element(
                at: type.encoded.upperBound, end: attribute.contents.upperBound, depth: 2, what())
            let value = try reader.element(
                at: version.encoded.upperBound, end: attribute.contents.upperBound, depth: 2, what())
            guard value.encoded.upperBound == attribute.contents.upperBound,
                value.isUniversal(BERElement.Universal.octetString), !value.isConstructed
            else { throw VerificationError(.malformed, "\(what()): attribute is not (INTEGER, INTEGER, OCTET STRING)") }
            try body(
                try reader.integer(type, "\(what()) attribute type"),
                try reader.integer(version, "\(what()) attribute version"), value)
        }
    }

    /// The inner value of an attribute, which must fill the OCTET STRING.
    static func inner(_ reader: BERReader, _ value: BERElement, _ type: Int64) throws -> BERElement? {
        if value.contents.isEmpty { return nil }
        let inner = try reader.element(
            at: value.contents.lowerBound, end: value.contents.upperBound, depth: 3, "attribute \(type)")
        guard inner.encoded.upperBound == value.contents.upperBound else {
            throw VerificationError(.malformed, "attribute \(type): trailing bytes after its value")
        }
        return inner
    }

    static func string(_ reader: BERReader, _ value: BERElement, _ type: Int64) throws -> String? {
        guard let inner = try inner(reader, value, type) else { return nil }
        guard inner.isUniversal(BERElement.Universal.utf8String) || inner.isUniversal(BERElement.Universal.ia5String),
            !inner.isConstructed
        else { throw VerificationError(.malformed, "attribute \(type): expected a UTF8String or IA5String") }
        return String(decoding: reader.bytes[inner.contents], as: UTF8.self)
    }

    static func integer(_ reader: BERReader, _ value: BERElement, _ type: Int64) throws -> Int64? {
        guard let inner = try inner(reader, value, type) else { return nil }
        return try reader.integer(inner, "attribute \(type)")
    }

    static func date(_ reader: BERReader, _ value: BERElement, _ type: Int64) throws -> Date? {
        guard let inner = try inner(reader, value, type) else { return nil }
        guard inner.isUniversal(BERElement.Universal.ia5String) || inner.isUniversal(BERElement.Universal.utf8String),
            !inner.isConstructed
        else { throw VerificationError(.malformed, "attribute \(type): expected an IA5String date") }
        if inner.contents.isEmpty { return nil }
        guard let date = AppleDateFormat.parse(bytes: reader.bytes[inner.contents]) else {
            let text = String(decoding: reader.bytes[inner.contents].prefix(40), as: UTF8.self)
            throw VerificationError(.malformed, "attribute \(type): \"\(text)\" is not an RFC 3339 date")
        }
        return date
    }
}
