import AppStoreSimulator
import Foundation
import Hummingbird

/// Apple's Retention Messaging management endpoints under `/inApps/v1/messaging`, with Apple's JWT check and
/// errors: the real-time URL and the messages (a message is reviewed by the simulator's control verbs).
extension AppleRoutes {
    func addRetentionRoutes(to api: RouterGroup<BasicRequestContext>) {
        api.put("v1/messaging/realtime/url") { request, _ in
            try await authorized(request) { bundleID in
                let body =
                    try? JSONSerialization.jsonObject(with: try await JSONResponse.body(request)) as? [String: Any]
                try await simulator.configureRealtimeURL(bundleID: bundleID, url: body?["realtimeURL"] as? String ?? "")
                return Response(status: .ok)
            }
        }
        api.get("v1/messaging/realtime/url") { request, _ in
            try await authorized(request) { bundleID in
                JSONResponse.object(["realtimeURL": try await simulator.realtimeURL(bundleID: bundleID)])
            }
        }
        api.delete("v1/messaging/realtime/url") { request, _ in
            try await authorized(request) { bundleID in
                await simulator.deleteRealtimeURL(bundleID: bundleID)
                return Response(status: .ok)
            }
        }
        api.put("v1/messaging/default/:productId/:locale") { request, context in
            try await authorized(request) { bundleID in
                let body =
                    try? JSONSerialization.jsonObject(with: try await JSONResponse.body(request)) as? [String: Any]
                try await simulator.configureDefaultRetentionMessage(
                    bundleID: bundleID, productID: try context.parameters.require("productId"),
                    locale: try context.parameters.require("locale"),
                    messageID: body?["messageIdentifier"] as? String ?? "")
                return Response(status: .ok)
            }
        }
        api.get("v1/messaging/default/:productId/:locale") { request, context in
            try await authorized(request) { bundleID in
                JSONResponse.object([
                    "messageIdentifier": try await simulator.defaultRetentionMessage(
                        bundleID: bundleID, productID: try context.parameters.require("productId"),
                        locale: try context.parameters.require("locale"))
                ])
            }
        }
        api.delete("v1/messaging/default/:productId/:locale") { request, context in
            try await authorized(request) { bundleID in
                await simulator.deleteDefaultRetentionMessage(
                    bundleID: bundleID, productID: try context.parameters.require("productId"),
                    locale: try context.parameters.require("locale"))
                return Response(status: .ok)
            }
        }
        api.get("v1/messaging/message/list") { request, _ in
            try await authorized(request) { bundleID in
                JSONResponse.object([
                    "messageIdentifiers": await simulator.retentionMessages(bundleID: bundleID).map {
                        ["messageIdentifier": $0.id, "messageState": $0.state]
                    }
                ])
            }
        }
        api.put("v1/messaging/message/:messageIdentifier") { request, context in
            try await authorized(request) { bundleID in
                let body =
                    try? JSONSerialization.jsonObject(with: try await JSONResponse.body(request)) as? [String: Any]
                try await simulator.uploadRetentionMessage(
                    bundleID: bundleID, messageID: try context.parameters.require("messageIdentifier"),
                    header: body?["header"] as? String ?? "", body: body?["body"] as? String ?? "")
                return Response(status: .ok)
            }
        }
        api.delete("v1/messaging/message/:messageIdentifier") { request, context in
            try await authorized(request) { bundleID in
                try await simulator.deleteRetentionMessage(
                    bundleID: bundleID, messageID: try context.parameters.require("messageIdentifier"))
                return Response(status: .ok)
            }
        }
    }
}
