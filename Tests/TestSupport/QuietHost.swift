import PortolanLua

extension PortolanHost {
    /// A host whose scripts print nowhere, with `app` loaded as `app.lua` when given: what most
    /// host tests start from.
    public static func quiet(
        loading app: String? = nil, configuration: HostConfiguration = HostConfiguration()
    ) async throws -> PortolanHost {
        let host = try PortolanHost(configuration: configuration)
        await host.setOutput { _ in }
        if let app { try await host.loadApp(.source(app, chunkName: "app.lua")) }
        return host
    }
}
