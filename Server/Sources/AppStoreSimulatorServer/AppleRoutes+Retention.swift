import AppStoreModels
import AppStoreSimulator
import Foundation
import Hummingbird
import NIOCore

/// Apple's Retention Messaging management endpoints under `/inApps/v1/messaging`, with Apple's JWT check and
/// errors: the real-time URL, the messages and the images (each reviewed by the simulator's control verbs).
extension AppleRoutes {
    func addRetentionRoutes(to api: RouterGroup<BasicRequestContext>) {
        addRetentionImageRoutes(to: api)
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
        api.post("v1/messaging/performanceTest") { request, _ in
            try await authorized(request) { bundleID in
                let body =
                    try? JSONSerialization.jsonObject(with: try await JSONResponse.body(request)) as? [String: Any]
                let asked = try await simulator.performanceTestRequests(
                    bundleID: bundleID, originalTransactionID: body?["originalTransactionId"] as? String ?? "",
                    count: PerformanceTestRun.totalRequests)
                let requestID = UUID().uuidString.lowercased()
                let pending: [String: Any] = [
                    "config": PerformanceTestRun.config, "target": asked.url, "result": "PENDING",
                    "numPending": PerformanceTestRun.totalRequests,
                ]
                await simulator.recordPerformanceTest(
                    requestID, result: try JSONSerialization.data(withJSONObject: pending))
                let simulator = simulator
                Task {
                    let result = await PerformanceTestRun(url: asked.url, bodies: asked.bodies).run()
                    await simulator.recordPerformanceTest(requestID, result: result)
                }
                return JSONResponse.object(["config": PerformanceTestRun.config, "requestId": requestID])
            }
        }
        api.get("v1/messaging/performanceTest/result/:requestId") { request, context in
            try await authorized(request) { _ in
                let result = try await simulator.performanceTestResult(try context.parameters.require("requestId"))
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: result)))
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
                guard
                    let upload = try? JSONDecoder().decode(
                        UploadMessageRequestBody.self, from: try await JSONResponse.body(request))
                else { throw AppStoreAPIError.invalidRequest }
                try await simulator.uploadRetentionMessage(
                    bundleID: bundleID, messageID: try context.parameters.require("messageIdentifier"), upload)
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

extension AppleRoutes {
    /// Upload Image (a PNG body of at most 16 MiB), Get Image List and Delete Image.
    func addRetentionImageRoutes(to api: RouterGroup<BasicRequestContext>) {
        api.get("v1/messaging/image/list") { request, _ in
            try await authorized(request) { bundleID in
                JSONResponse.object([
                    "imageIdentifiers": await simulator.retentionImages(bundleID: bundleID).map {
                        ["imageIdentifier": $0.id, "imageState": $0.image.state, "imageSize": $0.image.size]
                    }
                ])
            }
        }
        api.put("v1/messaging/image/:imageIdentifier") { request, context in
            try await authorized(request) { bundleID in
                try await simulator.uploadRetentionImage(
                    bundleID: bundleID, imageID: try context.parameters.require("imageIdentifier"),
                    png: try await JSONResponse.body(request, limit: 16 << 20),
                    size: request.uri.queryParameters.get("imageSize"))
                return Response(status: .ok)
            }
        }
        api.delete("v1/messaging/image/:imageIdentifier") { request, context in
            try await authorized(request) { bundleID in
                try await simulator.deleteRetentionImage(
                    bundleID: bundleID, imageID: try context.parameters.require("imageIdentifier"))
                return Response(status: .ok)
            }
        }
    }
}
