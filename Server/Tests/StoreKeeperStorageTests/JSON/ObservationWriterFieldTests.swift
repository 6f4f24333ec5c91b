import AppStoreModels
import Foundation
import SubscriptionEngine
import Testing

@testable import StoreKeeperStorage

/// `ObservationWriter` lists the models' fields by hand: these specs enumerate the fields themselves (`Mirror`)
/// so a field a model gains later cannot be dropped silently — the fully populated values below must set every
/// field, and the writer must write every one of them.
@Suite struct ObservationWriterFieldTests {
    /// The labels of a value's stored properties, and those that are `nil` in it.
    static func fields(_ value: Any) -> (all: Set<String>, unset: Set<String>) {
        var all = Set<String>()
        var unset = Set<String>()
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            all.insert(label)
            if case .some(.none) = (child.value as Any?).map({
                Mirror(reflecting: $0).displayStyle == .optional ? Self.unwrap($0) : $0
            }) {
                unset.insert(label)
            }
        }
        return (all, unset)
    }

    /// `nil` when `value` is an optional holding nothing.
    static func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        return mirror.children.first?.value
    }

    /// The top-level keys of written JSON.
    static func keys(_ bytes: [UInt8]?) throws -> Set<String> {
        let object = try JSONSerialization.jsonObject(with: Data(try #require(bytes))) as? [String: Any]
        return Set(try #require(object).keys)
    }

    @Test("every stored field of Transaction is set in the full value and written by the writer")
    func transactionFields() throws {
        let value = ObservationWriterTests.fullTransaction(Date(timeIntervalSince1970: 1_767_225_600))
        let fields = Self.fields(value)
        #expect(
            fields.unset.isEmpty,
            "the full transaction leaves \(fields.unset.sorted()) unset: set them in fullTransaction")
        #expect(try Self.keys(ObservationWriter.json(value)) == fields.all)
    }

    @Test("every stored field of RenewalState is set in the full value and written by the writer")
    func renewalFields() throws {
        let value = ObservationWriterTests.fullRenewal(Date(timeIntervalSince1970: 1_767_225_600))
        let fields = Self.fields(value)
        #expect(fields.unset.isEmpty, "the full renewal leaves \(fields.unset.sorted()) unset: set them in fullRenewal")
        #expect(try Self.keys(ObservationWriter.json(value)) == fields.all)
    }

    @Test("every stored field of Offer is written")
    func offerFields() throws {
        let value = Offer(kind: .promotional, identifier: "spring")
        #expect(try Self.keys(ObservationWriter.json(value)) == Self.fields(value).all)
    }
}
