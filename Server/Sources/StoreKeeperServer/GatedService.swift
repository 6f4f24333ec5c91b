import ServiceLifecycle

/// Runs services together once a ``StartupGate`` opens (at once without one); cancelled before it opens, none runs.
struct GatedService: Service {
    let gate: StartupGate?
    let services: [any Service]

    func run() async throws {
        if let gate {
            await withTaskCancellationHandler {
                await gate.wait()
            } onCancel: {
                gate.open()
            }
        }
        guard !Task.isCancelled else { return }
        try await withThrowingDiscardingTaskGroup { group in
            for service in services { group.addTask { try await service.run() } }
        }
    }
}
