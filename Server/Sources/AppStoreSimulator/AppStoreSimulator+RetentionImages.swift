import AppStoreModels
public import Foundation

/// Apple's Retention Messaging images: Upload Image (a PNG without transparency; a full-size image 3840 pixels
/// wide and 160–2160 high), Get Image List, Delete Image (not while a message shows it), and Apple's review of
/// each image (the simulator's control verb).
extension AppStoreSimulator {
    /// Apple's limit on an app's images.
    static let maximumRetentionImages = 2_000

    /// Upload Image.
    /// - Parameter size: `FULL_SIZE` (the default) or `BULLET_POINT`.
    /// - Throws: ``AppStoreAPIError`` 400 `BadRequestImageSizeError` (4000216) for another size, 400
    ///   `InvalidImageError` (4000161) for a picture that is not a PNG, can be transparent, or (full size) is not
    ///   3840 × 160–2160; 403 `MaximumNumberOfImagesReachedError` (4030014); 409 `ImageAlreadyExistsError`
    ///   (4090000).
    public func uploadRetentionImage(bundleID: String, imageID: String, png: Data, size: String?) throws {
        guard var app = apps[bundleID] else { throw AppStoreAPIError.transactionNotFound }
        guard UUID(uuidString: imageID) != nil else {
            throw AppStoreAPIError(
                httpStatus: 400, errorCode: 4_000_000, errorMessage: "Invalid request: the image identifier is a UUID.")
        }
        let size = size ?? "FULL_SIZE"
        guard ["FULL_SIZE", "BULLET_POINT"].contains(size) else {
            throw AppStoreAPIError(httpStatus: 400, errorCode: 4_000_216, errorMessage: "Invalid image size.")
        }
        guard let header = PNGHeader(png), !header.hasTransparency,
            size == "BULLET_POINT" || (header.width == 3_840 && (160...2_160).contains(header.height))
        else {
            throw AppStoreAPIError(httpStatus: 400, errorCode: 4_000_161, errorMessage: "Invalid image.")
        }
        var images = app.retentionImages ?? [:]
        guard images[imageID.lowercased()] == nil else {
            throw AppStoreAPIError(httpStatus: 409, errorCode: 4_090_000, errorMessage: "Image already exists.")
        }
        guard images.count < Self.maximumRetentionImages else {
            throw AppStoreAPIError(
                httpStatus: 403, errorCode: 4_030_014, errorMessage: "Maximum number of images reached.")
        }
        images[imageID.lowercased()] = SimulatedRetentionImage(size: size)
        app.retentionImages = images
        apps[bundleID] = app
        revision &+= 1
    }

    /// Get Image List: every image's identifier, state and size.
    public func retentionImages(bundleID: String) -> [(id: String, image: SimulatedRetentionImage)] {
        (apps[bundleID]?.retentionImages ?? [:]).map { ($0.key, $0.value) }.sorted { $0.id < $1.id }
    }

    /// Delete Image.
    /// - Throws: ``AppStoreAPIError`` 404 `ImageNotFoundError` (4040014), or 403 `ImageInUseError` (4030019) while
    ///   a message shows it.
    public func deleteRetentionImage(bundleID: String, imageID: String) throws {
        let id = imageID.lowercased()
        guard let app = apps[bundleID], app.retentionImages?[id] != nil else { throw Self.imageNotFound }
        if (app.retentionMessages ?? [:]).values.contains(where: { $0.imageIDs.contains(id) }) {
            throw AppStoreAPIError(httpStatus: 403, errorCode: 4_030_019, errorMessage: "Image in use.")
        }
        apps[bundleID]?.retentionImages?[id] = nil
        revision &+= 1
    }

    /// Apple's review decides an image: `APPROVED` or `REJECTED` (the simulator's control verb).
    /// - Throws: ``SimulatorError`` `not_found` for an image the app did not upload.
    public func reviewRetentionImage(bundleID: String, imageID: String, approved: Bool) throws {
        guard apps[bundleID]?.retentionImages?[imageID.lowercased()] != nil else {
            throw SimulatorError.notFound("image", imageID)
        }
        apps[bundleID]?.retentionImages?[imageID.lowercased()]?.state = approved ? "APPROVED" : "REJECTED"
        revision &+= 1
    }

    /// Upload Message's checks of a message's text, image and bullet points, in Apple's errors.
    func checkRetentionMessage(_ upload: UploadMessageRequestBody, app: SimulatedApp) throws(AppStoreAPIError) {
        func refuse(_ code: Int64, _ message: String) -> AppStoreAPIError {
            AppStoreAPIError(httpStatus: 400, errorCode: code, errorMessage: message)
        }
        guard !upload.header.isEmpty, !upload.body.isEmpty else {
            throw refuse(4_000_000, "Invalid request: a message has a header and a body.")
        }
        guard upload.header.count <= 66 else { throw refuse(4_000_162, "Header too long.") }
        guard upload.body.count <= 144 else { throw refuse(4_000_163, "Body too long.") }
        let bullets = upload.bulletPoints ?? []
        guard bullets.count <= 5 else { throw refuse(4_000_218, "Too many bullet points.") }
        guard bullets.allSatisfy({ $0.text.count <= 66 }) else {
            throw refuse(4_000_219, "Bullet point text too long.")
        }
        let altTexts = [upload.image?.altText].compactMap { $0 } + bullets.map(\.altText)
        guard altTexts.allSatisfy({ $0.count <= 150 }) else { throw refuse(4_000_175, "Alt text too long.") }
        guard upload.headerPosition != "ABOVE_IMAGE" || upload.image != nil else {
            throw refuse(4_000_224, "Header above an image requires an image.")
        }
        guard [nil, "ABOVE_BODY", "ABOVE_IMAGE"].contains(upload.headerPosition) else {
            throw refuse(4_000_000, "Invalid request: headerPosition is ABOVE_BODY or ABOVE_IMAGE.")
        }
        for id in SimulatedRetentionMessage(upload).imageIDs where app.retentionImages?[id] == nil {
            throw Self.imageNotFound
        }
    }

    static let imageNotFound = AppStoreAPIError(httpStatus: 404, errorCode: 4_040_014, errorMessage: "Image not found.")
}
