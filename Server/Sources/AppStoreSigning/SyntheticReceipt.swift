import AppStoreModels
public import Foundation

/// Builds receipt payloads (`SET OF ReceiptAttribute`) in Apple's layout, for benchmarks and tests.
public enum SyntheticReceipt {
    /// One attribute: `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
    public static func attribute(_ type: Int64, _ value: [UInt8]) -> [UInt8] {
        DERWriter.sequence([DERWriter.integer(type), DERWriter.integer(1), DERWriter.octetString(value)])
    }

    /// The receipt's own attributes (environment, bundle id and version, opaque value, hash, creation date,
    /// original version) in Apple's layout.
    static func header(bundleID: String, created: Date) -> [[UInt8]] {
        [
            attribute(0, DERWriter.utf8String("ProductionSandbox")),
            attribute(2, DERWriter.utf8String(bundleID)),
            attribute(3, DERWriter.utf8String("1")),
            attribute(4, Array(repeating: 0xAB, count: 16)),
            attribute(5, Array(repeating: 0xCD, count: 20)),
            attribute(12, DERWriter.ia5String(AppleDateFormat.rfc3339(created))),
            attribute(19, DERWriter.utf8String("1.0")),
        ]
    }

    /// A payload with `purchases` monthly renewals of one subscription.
    /// - Parameters:
    ///   - purchases: How many in-app entries.
    ///   - bundleID: The bundle id.
    ///   - start: The first purchase date.
    /// - Returns: The DER payload.
    public static func payload(
        purchases: Int, bundleID: String = "com.example.bench", start: Date = Date(timeIntervalSince1970: 1_600_000_000)
    ) -> [UInt8] {
        var attributes = header(bundleID: bundleID, created: start.addingTimeInterval(Double(purchases) * 2_592_000))
        for index in 0..<purchases {
            let purchased = start.addingTimeInterval(Double(index) * 2_592_000)
            attributes.append(
                attribute(
                    17,
                    DERWriter.set([
                        attribute(1701, DERWriter.integer(1)),
                        attribute(1702, DERWriter.utf8String("com.example.monthly")),
                        attribute(1703, DERWriter.utf8String(String(1_000_000_000_000_000 + index))),
                        attribute(1704, DERWriter.ia5String(AppleDateFormat.rfc3339(purchased))),
                        attribute(1705, DERWriter.utf8String("1000000000000000")),
                        attribute(1706, DERWriter.ia5String(AppleDateFormat.rfc3339(start))),
                        attribute(
                            1708, DERWriter.ia5String(AppleDateFormat.rfc3339(purchased.addingTimeInterval(2_592_000)))),
                        attribute(1711, DERWriter.integer(Int64(2_000_000_000 + index))),
                        attribute(1712, DERWriter.ia5String("")),
                        attribute(1713, DERWriter.integer(index == 0 ? 1 : 0)),
                        attribute(1719, DERWriter.integer(0)),
                    ])))
        }
        return DERWriter.set(attributes)
    }

    /// A payload with `count` consumable purchases, each its own original transaction (a customer who bought
    /// coins many times), a minute apart.
    /// - Parameters:
    ///   - count: How many purchases.
    ///   - bundleID: The bundle id.
    ///   - productID: The consumable's product id.
    ///   - start: The first purchase date (the receipt is created a minute after the last).
    /// - Returns: The DER payload.
    public static func consumables(
        count: Int, bundleID: String, productID: String, start: Date = Date(timeIntervalSince1970: 1_767_225_600)
    ) -> [UInt8] {
        var attributes = header(bundleID: bundleID, created: start.addingTimeInterval(Double(count) * 60))
        for index in 0..<count {
            let purchased = start.addingTimeInterval(Double(index) * 60)
            let transactionID = String(3_000_000_000_000_000 + index)
            attributes.append(
                attribute(
                    17,
                    DERWriter.set([
                        attribute(1701, DERWriter.integer(1)),
                        attribute(1702, DERWriter.utf8String(productID)),
                        attribute(1703, DERWriter.utf8String(transactionID)),
                        attribute(1704, DERWriter.ia5String(AppleDateFormat.rfc3339(purchased))),
                        attribute(1705, DERWriter.utf8String(transactionID)),
                        attribute(1706, DERWriter.ia5String(AppleDateFormat.rfc3339(purchased))),
                        attribute(1711, DERWriter.integer(Int64(4_000_000_000 + index))),
                    ])))
        }
        return DERWriter.set(attributes)
    }
}
