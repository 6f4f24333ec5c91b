import Foundation
import StoreKeeperServer
import SubscriptionMetrics
import TestSupport
import Testing

/// The shipped storefront tax table: it loads, says where its rates come from and when, holds only storefronts
/// and plausible rates, and is the default of proceeds that `storefrontTaxRates` overrides storefront by storefront.
@Suite struct StorefrontTaxTableTests {
    @Test("the shipped table loads with its source and date, storefronts as keys and rates from 0 to 30 %")
    func shipped() throws {
        let table = StorefrontTaxTable.shipped
        #expect(table.rates.count >= 50, "the table was read: \(table.rates.count) rates")
        #expect(table.asOf.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil && !table.source.isEmpty && !table.note.isEmpty)
        for (storefront, rate) in table.rates {
            #expect(storefront.wholeMatch(of: /[A-Z]{3}/) != nil, "\(storefront)")
            #expect((0..<0.3).contains(rate), "\(storefront): \(rate)")
        }
        // Prices in the United States and Canada do not include sales tax; in Germany they include 19 % VAT.
        #expect(table.rates["USA"] == 0 && table.rates["CAN"] == 0 && table.rates["DEU"] == 0.19)
        #expect(ProceedsRules(taxRates: table.rates).problem == nil)
    }

    @Test("proceeds take the table's rate unless storefrontTaxRates overrides it")
    func defaultsAndOverrides() {
        var settings = MetricSettings()
        let german = settings.proceeds.proceeds(of: 11.9, storefront: "DEU", afterPaidDays: 0)
        #expect(abs(german - 11.9 / 1.19 * 0.7) < 1e-9)
        settings.storefrontTaxRates = ["DEU": 0.07, "XYZ": 0.1]
        #expect(abs(settings.proceeds.proceeds(of: 10.7, storefront: "DEU", afterPaidDays: 0) - 7) < 1e-9)
        #expect(abs(settings.proceeds.proceeds(of: 11, storefront: "XYZ", afterPaidDays: 0) - 7) < 1e-9)
        // Others keep the table's.
        #expect(abs(settings.proceeds.proceeds(of: 12, storefront: "FRA", afterPaidDays: 0) - 7) < 1e-9)
        #expect(abs(settings.proceeds.proceeds(of: 10, storefront: "USA", afterPaidDays: 0) - 7) < 1e-9)
    }
}
