import StoreKeeperAPI
import StoreKeeperStorage

/// The one rule for an attributes condition (targeting rules, experiment audiences, retention rules): each name
/// given holds exactly its value, and was set by the owner's backend (a secret key), unless the condition says
/// `"trust": "client"`. The public key is in every copy of the app and names no customer, so what it set is a
/// claim anyone can make for anyone: a condition that counts it must say so.
enum AttributeCondition {
    /// The default: only attributes set with a secret key count.
    static let trustServer = "server"
    /// Attributes the app set count too.
    static let trustClient = "client"

    /// Whether `held` satisfies `wanted` under `trust` (`nil` is ``trustServer``).
    static func holds(_ wanted: [String: String], in held: HeldAttributes, trust: String?) -> Bool {
        let countsClient = trust == trustClient
        return wanted.allSatisfy { name, value in
            held.values[name] == value && (countsClient || held.serverSet.contains(name))
        }
    }

    /// Refuses a `trust` other than `server` or `client`, and one beside no attributes condition (it would say
    /// nothing, and a reader would think it did).
    static func check(trust: String?, attributes: [String: String]?, _ name: String, invalid: (String) -> ServiceError)
        throws
    {
        guard let trust else { return }
        guard trust == trustServer || trust == trustClient else {
            throw invalid("\(name).trust \"\(trust.prefix(40))\": expected client, server")
        }
        guard attributes != nil else {
            throw invalid("\(name).trust applies to an attributes condition, and \(name) has none")
        }
    }
}
