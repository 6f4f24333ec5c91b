import Foundation
import StoreKeeperAPI

/// The one statement of what an offering may hold. Each broken rule is refused with `invalid_offering` (or
/// `unknown_product`), naming the field and the value.
struct OfferingRules: Sendable {
    /// The product ids of the app's catalog, where the server knows one (the configuration's, or the
    /// simulator's); empty: any product id is accepted.
    let catalog: Set<String>

    /// The most offerings a project may have.
    static let maximumOfferings = 50
    /// The most packages an offering may have.
    static let maximumPackages = 20
    /// The longest description, in characters.
    static let maximumDescription = 1_000
    /// The largest metadata, in bytes of its JSON.
    static let maximumMetadataBytes = 16 * 1024
    /// The longest identifier or product id, in characters.
    static let maximumIdentifier = 100
    /// The identifier `PUT /v1/offerings/current` takes for its own.
    static let reserved = "current"

    /// `identifier` checked as an offering's.
    static func checkedIdentifier(_ identifier: String) throws -> String {
        guard isName(identifier, extra: ""), identifier != reserved else {
            throw ServiceError.invalid(
                .invalidOffering,
                "identifier \"\(identifier.prefix(100))\" must be 1–\(maximumIdentifier) characters from A–Z a–z 0–9 . _ -"
                    + " and not \"\(reserved)\"")
        }
        return identifier
    }

    /// `offering` checked whole.
    func checked(_ offering: Offering) throws -> Offering {
        _ = try Self.checkedIdentifier(offering.identifier)
        guard offering.description.unicodeScalars.count <= Self.maximumDescription else {
            throw ServiceError.invalid(
                .invalidOffering,
                "description is \(offering.description.unicodeScalars.count) characters; at most \(Self.maximumDescription)"
            )
        }
        guard (1...Self.maximumPackages).contains(offering.packages.count) else {
            throw ServiceError.invalid(
                .invalidOffering,
                "packages has \(offering.packages.count) entries; an offering sells 1–\(Self.maximumPackages)")
        }
        var seen: Set<String> = []
        for (index, package) in offering.packages.enumerated() {
            guard Self.isName(package.identifier, extra: "$") else {
                throw ServiceError.invalid(
                    .invalidOffering,
                    "packages[\(index)].identifier \"\(package.identifier.prefix(100))\" must be 1–\(Self.maximumIdentifier)"
                        + " characters from A–Z a–z 0–9 . _ - $")
            }
            guard seen.insert(package.identifier).inserted else {
                throw ServiceError.invalid(
                    .invalidOffering, "packages[\(index)].identifier \"\(package.identifier)\" is used twice")
            }
            guard Self.isName(package.productID, extra: "") else {
                throw ServiceError.invalid(
                    .invalidOffering,
                    "packages[\(index)].product_id \"\(package.productID.prefix(100))\" is not a product id")
            }
            guard catalog.isEmpty || catalog.contains(package.productID) else {
                throw ServiceError.invalid(
                    .unknownProduct,
                    "packages[\(index)].product_id \"\(package.productID)\" is not in the app's catalog")
            }
        }
        let metadataBytes = try APICoding.encoder().encode(offering.metadata).count
        guard metadataBytes <= Self.maximumMetadataBytes else {
            throw ServiceError.invalid(
                .invalidOffering, "metadata is \(metadataBytes) bytes of JSON; at most \(Self.maximumMetadataBytes)")
        }
        return offering
    }

    /// Whether `text` is 1–`maximum` (100) characters from `A–Z a–z 0–9 . _ -` and `extra`: the one rule for the
    /// names the owner and the app give (offerings, packages, rules, experiments, attributes).
    static func isName(_ text: String, extra: String, maximum: Int = maximumIdentifier) -> Bool {
        !text.isEmpty && text.count <= maximum
            && text.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                    || "._-".unicodeScalars.contains($0)
                    || extra.unicodeScalars.contains($0)
            }
    }
}
