import Foundation
import StoreKeeperAPI

/// A line chart of a metric's series, drawn as SVG by our own code (no script, no web font, no CDN): one polyline
/// per series over a shared value axis, the first and last bucket dates under it, a legend beside it.
enum SVGChart {
    static let width = 640.0
    static let height = 200.0
    static let margin = (left: 56.0, right: 12.0, top: 12.0, bottom: 28.0)
    static let colours = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#4b5563"]

    /// The chart of `response`, titled, with a link to its series as CSV when `csv` names one.
    static func line(_ response: MetricResponse, title: String, csv: String? = nil) -> String {
        let values = response.series.flatMap { $0.points.map(\.value) }
        let top = max(values.max() ?? 0, 1)
        let bottom = min(values.min() ?? 0, 0)
        let plotWidth = width - margin.left - margin.right
        let plotHeight = height - margin.top - margin.bottom
        func x(_ index: Int, of count: Int) -> Double {
            margin.left + (count <= 1 ? plotWidth / 2 : plotWidth * Double(index) / Double(count - 1))
        }
        func y(_ value: Double) -> Double { margin.top + plotHeight * (1 - (value - bottom) / (top - bottom)) }
        var svg =
            "<svg class=\"chart\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
            + "width=\"\(Int(width))\" height=\"\(Int(height))\" data-metric=\"\(HTMLText.escape(response.name))\" "
            + "data-points=\"\(values.count)\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg +=
            "<line class=\"axis\" x1=\"\(margin.left)\" y1=\"\(y(bottom))\" x2=\"\(width - margin.right)\" y2=\"\(y(bottom))\"/>"
        svg +=
            "<text class=\"tick\" x=\"\(margin.left - 6)\" y=\"\(y(top) + 4)\" text-anchor=\"end\">\(number(top))</text>"
        svg +=
            "<text class=\"tick\" x=\"\(margin.left - 6)\" y=\"\(y(bottom) + 4)\" text-anchor=\"end\">\(number(bottom))</text>"
        if let first = response.series.first?.points.first, let last = response.series.first?.points.last {
            svg += "<text class=\"tick\" x=\"\(margin.left)\" y=\"\(height - 8)\">\(day(first.start))</text>"
            svg +=
                "<text class=\"tick\" x=\"\(width - margin.right)\" y=\"\(height - 8)\" text-anchor=\"end\">\(day(last.start))</text>"
        }
        for (index, series) in response.series.enumerated() {
            let colour = colours[index % colours.count]
            let points = series.points.enumerated().map {
                "\(x($0.offset, of: series.points.count)),\(y($0.element.value))"
            }
            svg +=
                "<polyline class=\"series\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\">"
                + "<title>\(HTMLText.escape(series.key))</title></polyline>"
        }
        svg += "</svg>"
        let legend = response.series.enumerated().map { index, series in
            "<li><span class=\"swatch\" style=\"background:\(colours[index % colours.count])\"></span>"
                + "\(HTMLText.escape(series.key)): \(number(series.points.last?.value ?? 0))</li>"
        }.joined()
        return
            "<figure><figcaption>\(HTMLText.escape(title))"
            + (csv.map { " <a class=\"csv\" href=\"\(HTMLText.escape($0))\">CSV</a>" } ?? "")
            + "</figcaption>\(svg)<ul class=\"legend\">\(legend)</ul></figure>"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e12 ? String(Int64(value)) : String(format: "%.2f", value)
    }

    static func day(_ date: Date) -> String {
        String(ISO8601DateFormatter().string(from: date).prefix(10))
    }
}
