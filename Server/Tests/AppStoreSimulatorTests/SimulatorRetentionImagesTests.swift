import AppStoreModels
import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// Retention images as Apple's Upload Image takes them — a PNG without transparency, a full-size one 3840 pixels
/// wide and 160–2160 high — reviewed before a message can show them, never deleted while a message does, and never
/// on a promotional-offer or switch-plan message.
@Suite struct SimulatorRetentionImagesTests {
    static let banner = "6a1f0e4c-2b7d-4c1e-9a3f-1d2e3f4a5b6c"
    static let icon = "7b2e1f5d-3c8e-4d2f-8b4a-2e3f4a5b6c7d"
    static let message = "8c3f2a6e-4d9f-4e3a-9c5b-3f4a5b6c7d8e"

    func apple(_ body: () async throws -> Void) async -> Int64? {
        do {
            try await body()
            return nil
        } catch let error as AppStoreAPIError { return error.errorCode } catch { return -1 }
    }

    @Test("a full-size image must be an opaque PNG 3840 wide and 160-2160 high; a bullet point is any opaque PNG")
    func uploadChecks() async throws {
        let h = try await SimulatorHarness()
        let s = h.simulator
        func upload(_ id: String, _ png: Data, _ size: String? = nil) async -> Int64? {
            await apple { try await s.uploadRetentionImage(bundleID: h.bundleID, imageID: id, png: png, size: size) }
        }
        let id = Self.banner
        #expect(await upload(id, PNGFixture.make(width: 1920, height: 600)) == 4_000_161)
        #expect(await upload(id, PNGFixture.make(width: 3840, height: 100)) == 4_000_161)
        #expect(await upload(id, PNGFixture.make(width: 3840, height: 600, colorType: 6)) == 4_000_161)
        #expect(await upload(id, PNGFixture.make(width: 3840, height: 600, transparentColor: true)) == 4_000_161)
        #expect(await upload(id, Data("GIF89a not a png at all, really not".utf8)) == 4_000_161)
        #expect(await upload(id, PNGFixture.make(width: 3840, height: 600).prefix(40)) == 4_000_161)
        #expect(await upload(id, PNGFixture.make(width: 3840, height: 600), "HUGE") == 4_000_216)
        #expect(await upload("not-a-uuid", PNGFixture.make(width: 3840, height: 600)) == 4_000_000)
        #expect(await s.retentionImages(bundleID: h.bundleID).isEmpty)

        #expect(await upload(id, PNGFixture.make(width: 3840, height: 600)) == nil)
        #expect(await upload(id.uppercased(), PNGFixture.make(width: 3840, height: 2160)) == 4_090_000)
        #expect(await upload(Self.icon, PNGFixture.make(width: 96, height: 96), "BULLET_POINT") == nil)
        let listed = await s.retentionImages(bundleID: h.bundleID).map { "\($0.id) \($0.image.size) \($0.image.state)" }
        #expect(listed == ["\(Self.banner) FULL_SIZE PENDING", "\(Self.icon) BULLET_POINT PENDING"])
    }

    @Test("a message's texts, bullet points and images are held to Apple's limits, each with Apple's error")
    func messageChecks() async throws {
        let h = try await SimulatorHarness()
        let s = h.simulator
        func upload(_ body: UploadMessageRequestBody) async -> Int64? {
            await apple { try await s.uploadRetentionMessage(bundleID: h.bundleID, messageID: Self.message, body) }
        }
        let image = UploadMessageImage(imageIdentifier: Self.banner, altText: "A view of the app")
        #expect(await upload(.init(header: "Stay", body: "Please", image: image)) == 4_040_014)
        try await s.uploadRetentionImage(
            bundleID: h.bundleID, imageID: Self.banner, png: PNGFixture.make(width: 3840, height: 600), size: nil)
        #expect(await upload(.init(header: String(repeating: "h", count: 67), body: "b")) == 4_000_162)
        #expect(await upload(.init(header: "h", body: String(repeating: "b", count: 145))) == 4_000_163)
        #expect(await upload(.init(header: "h", body: "b", headerPosition: "ABOVE_IMAGE")) == 4_000_224)
        let long = UploadMessageImage(imageIdentifier: Self.banner, altText: String(repeating: "a", count: 151))
        #expect(await upload(.init(header: "h", body: "b", image: long)) == 4_000_175)
        let bullet = BulletPoint(text: "Offline mode", imageIdentifier: Self.banner, altText: "tick")
        #expect(
            await upload(.init(header: "h", body: "b", bulletPoints: Array(repeating: bullet, count: 6))) == 4_000_218)
        #expect(await s.retentionMessages(bundleID: h.bundleID).isEmpty)
        #expect(await upload(.init(header: "h", body: "b", image: image, headerPosition: "ABOVE_IMAGE")) == nil)
    }

    @Test("an image a message shows cannot be deleted, and the message is a default only once its image is approved")
    func reviewAndUse() async throws {
        let h = try await SimulatorHarness()
        let s = h.simulator
        try await s.uploadRetentionImage(
            bundleID: h.bundleID, imageID: Self.banner, png: PNGFixture.make(width: 3840, height: 600),
            size: "FULL_SIZE")
        try await s.uploadRetentionMessage(
            bundleID: h.bundleID, messageID: Self.message,
            .init(header: "Stay", body: "Please", image: .init(imageIdentifier: Self.banner, altText: "The app")))
        try await s.reviewRetentionMessage(bundleID: h.bundleID, messageID: Self.message, approved: true)
        func makeDefault() async -> Int64? {
            await apple {
                try await s.configureDefaultRetentionMessage(
                    bundleID: h.bundleID, productID: "premium.monthly", locale: "en-US", messageID: Self.message)
            }
        }
        #expect(await makeDefault() == 4_030_018)
        try await s.reviewRetentionImage(bundleID: h.bundleID, imageID: Self.banner, approved: true)
        #expect(await makeDefault() == nil)
        #expect(
            await apple { try await s.deleteRetentionImage(bundleID: h.bundleID, imageID: Self.banner) } == 4_030_019)
        try await s.deleteRetentionMessage(bundleID: h.bundleID, messageID: Self.message)
        #expect(await apple { try await s.deleteRetentionImage(bundleID: h.bundleID, imageID: Self.banner) } == nil)
        #expect(
            await apple { try await s.deleteRetentionImage(bundleID: h.bundleID, imageID: Self.banner) } == 4_040_014)
    }

    @Test("Apple shows a message with an image as a message, never with a switch plan or an offer")
    func judged() async throws {
        let h = try await SimulatorHarness()
        let s = h.simulator
        try await s.uploadRetentionImage(
            bundleID: h.bundleID, imageID: Self.banner, png: PNGFixture.make(width: 3840, height: 600), size: nil)
        try await s.uploadRetentionMessage(
            bundleID: h.bundleID, messageID: Self.message,
            .init(header: "Stay", body: "Please", image: .init(imageIdentifier: Self.banner, altText: "The app")))
        try await s.reviewRetentionMessage(bundleID: h.bundleID, messageID: Self.message, approved: true)
        func judge(_ json: String) async -> (String, String?) {
            await s.judgeRetentionAnswer(
                bundleID: h.bundleID, productID: "premium.monthly", status: 200, body: Data(json.utf8))
        }
        let message = #"{"message": {"messageIdentifier": "\#(Self.message)"}}"#
        #expect(await judge(message).1?.contains("image") == true)  // its image is still pending
        try await s.reviewRetentionImage(bundleID: h.bundleID, imageID: Self.banner, approved: true)
        #expect(await judge(message).0 == "realtime")
        let switchPlan =
            #"{"alternateProduct": {"messageIdentifier": "\#(Self.message)", "productId": "premium.annual"}}"#
        let judged = await judge(switchPlan)
        #expect(judged.0 == "default" && judged.1?.contains("text-based") == true)
    }
}
