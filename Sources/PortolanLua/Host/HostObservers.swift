import Portolan

/// Who hears what happens in a host besides its scripts: the tools and the embedding app.
struct HostObservers {
    /// Told of every URL a script routes to, once resolved (coverage of route patterns).
    var urls: (@Sendable (URLResolution) -> Void)?
    /// Told of every router event, with the step of the route it belongs to, from whichever router
    /// the app has now (a reload or a script that declares the app again makes a new one).
    var events: [@Sendable (RouterEvent, RouteStep?) -> Void] = []
    /// Where `print` and observer failures go.
    var output: @Sendable (String) -> Void = { print($0) }
}
