import Hummingbird

/// The Search page: the header's box asks ``CustomerSearch`` (the same search as `GET /v1/search`) for the
/// signed-in project's customers.
extension DashboardRoutes {
    func addSearchRoutes(to router: Router<BasicRequestContext>) {
        router.get("dashboard/search") { request, _ in
            try await withSession(request) { _, session in
                let text = request.uri.queryParameters.get("q").map { String($0) }
                var body = "<h1>Search</h1>" + DashboardPages.customerSearchForm(text)
                var status = HTTPResponse.Status.ok
                do {
                    let response = try await search.search(text, bundleID: session.bundleID)
                    body += DashboardPages.searchResults(text ?? "", response)
                } catch let error as ServiceError {
                    body += "<p class=\"error\">\(HTMLText.escape(error.message))</p>"
                    status = APIError(error).status
                }
                return Self.page(DashboardPages.layout(title: "Search", session: session, body: body), status: status)
            }
        }
    }
}
