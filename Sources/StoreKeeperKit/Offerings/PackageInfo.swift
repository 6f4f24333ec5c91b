/// One thing an offering sells: the paywall's name for it and the store's product, priced for this customer
/// (with their introductory-offer eligibility). Buy it with ``StoreKeeper/purchase(package:promotionalOfferID:)``.
public struct PackageInfo: Sendable, Hashable, Identifiable {
    /// Its name in the offering (`monthly`, `annual`, any other).
    public var identifier: String
    /// The offering it belongs to.
    public var offeringIdentifier: String
    /// The product, as the store shows it.
    public var product: StoreProduct

    /// Makes a package.
    public init(identifier: String, offeringIdentifier: String, product: StoreProduct) {
        self.identifier = identifier
        self.offeringIdentifier = offeringIdentifier
        self.product = product
    }

    /// The offering's identifier and the package's.
    public var id: String { offeringIdentifier + "/" + identifier }
}
