import TestSupport
import Testing

@testable import StoreKeeperServer

/// The dashboard's escaper keeps any text text: random strings drawn from every Unicode category (with the markup
/// scalars, combining marks and Prepend letters beside them), escaped into element content and into attribute
/// values of both quotes, tokenize back to the same scalars and to no tag, attribute or comment.
@Suite struct HTMLTextTests {
    /// Up to 24 scalars of each Unicode general category from the first three planes and the private-use plane
    /// start: every category a scalar can have.
    static let pool: [[Unicode.Scalar]] = {
        var byCategory: [Unicode.GeneralCategory: [Unicode.Scalar]] = [:]
        for value in UInt32(0)...0x3_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            if byCategory[category, default: []].count < 24 { byCategory[category, default: []].append(scalar) }
        }
        byCategory[.privateUse, default: []].append(contentsOf: [Unicode.Scalar(0xF_0000)!, Unicode.Scalar(0x10_FFFD)!])
        return byCategory.keys.sorted { "\($0)" < "\($1)" }.map { byCategory[$0]! }
    }()

    /// What an attacker reaches for: the markup scalars and what fuses with them into one grapheme cluster.
    static let hostile: [Unicode.Scalar] = [
        "<", ">", "&", "\"", "'", "=", "/", "\u{301}", "\u{D4E}", "\u{200D}", "\u{FE0F}", "\u{93F}", "\u{111C2}",
    ]

    static func randomText(using generator: inout SeededGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...16, using: &generator) {
            if Bool.random(using: &generator) {
                scalars.append(hostile.randomElement(using: &generator)!)
            } else {
                scalars.append(pool.randomElement(using: &generator)!.randomElement(using: &generator)!)
            }
        }
        return String(scalars)
    }

    @Test("the pool holds every general category a scalar can have (29: all but surrogates)")
    func everyCategory() {
        #expect(Self.pool.count == 29)
    }

    @Test("random text from every category, escaped, tokenizes back to itself and to no markup")
    func noMarkupSurvives() {
        var generator = SeededGenerator(seed: 0x5EED_4711)
        for _ in 0..<20_000 {
            let text = Self.randomText(using: &generator)
            let scalars = Array(text.unicodeScalars)
            let escaped = HTMLText.escape(text)
            let page = "<p title=\"\(escaped)\" data-x='\(escaped)'>\(escaped)</p><i>\(escaped)</i>"
            let expected: [HTMLTokenizer.Token] =
                [
                    .start(
                        "p",
                        [
                            HTMLTokenizer.Attribute(name: "title", value: scalars),
                            HTMLTokenizer.Attribute(name: "data-x", value: scalars),
                        ])
                ] + (scalars.isEmpty ? [] : [.text(scalars)]) + [.end("p"), .start("i", [])]
                + (scalars.isEmpty ? [] : [.text(scalars)]) + [.end("i")]
            let tokens = HTMLTokenizer.tokens(page)
            #expect(tokens == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            if tokens != expected { return }
        }
    }

    @Test(
        "the clusters that hid markup from a Character comparison are escaped scalar by scalar",
        arguments: ["\"\u{301} autofocus onfocus=x", "\u{D4E}<meta http-equiv=refresh>", ">\u{301}<b>", "'\u{200D}"])
    func fusedClusters(_ text: String) {
        let escaped = HTMLText.escape(text)
        #expect(!escaped.unicodeScalars.contains { ["<", ">", "\"", "'"].contains($0) })
        #expect(HTMLTokenizer.decode(Array(escaped.unicodeScalars)) == Array(text.unicodeScalars))
    }

    @Test("a CSV field of random text from every category reads back whole, and never as a formula")
    func csvFields() {
        var generator = SeededGenerator(seed: 0xC5F_2026)
        for _ in 0..<20_000 {
            let text = Self.randomText(using: &generator)
            let line = [CSVField.quoted(text), CSVField.quoted("=" + text), "end"].joined(separator: ",") + "\n"
            let records = CSVReader.records(line)
            let formula = CSVField.formulaStarts.contains(text.unicodeScalars.first ?? " ")
            let expected = [[(formula ? "'" : "") + text, "'=" + text, "end"]]
            let same =
                records.map { $0.map { Array($0.unicodeScalars) } }
                == expected.map { $0.map { Array($0.unicodeScalars) } }
            #expect(same, "\(text.unicodeScalars.map { String($0.value, radix: 16) }) read as \(records)")
            if !same { return }
        }
    }
}
