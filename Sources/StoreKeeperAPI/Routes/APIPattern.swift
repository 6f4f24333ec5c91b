/// A route's path as its declaration writes it: text with each parameter interpolated by its declaration
/// (`"v1/subscribers/\(.appUserID)/entitlements/\(.entitlement)/grants"`), so a parameter's name and type are
/// stated once and the path names it `{app_user_id}` — the form the router and the OpenAPI document both read.
public struct APIPattern: Sendable, ExpressibleByStringInterpolation {
    /// The path, each parameter as `{name}`.
    public let text: String
    /// The parameters, in order.
    public let parameters: [APIParameter]

    /// A path without parameters.
    public init(stringLiteral value: String) {
        text = value
        parameters = []
    }

    /// A path with parameters.
    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
        parameters = stringInterpolation.parameters
    }

    /// The pieces of a path being declared.
    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        var parameters: [APIParameter] = []

        /// Room for the path's text.
        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// Fixed text of the path.
        public mutating func appendLiteral(_ literal: String) { text += literal }

        /// A path parameter, written `{name}`.
        public mutating func appendInterpolation(_ parameter: APIParameter) {
            text += "{" + parameter.name + "}"
            parameters.append(parameter)
        }
    }
}
