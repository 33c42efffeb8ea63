import Portolan

/// Where a route was going when a guard or an interceptor redirected it with `{ resume = true }`:
/// its destination and, when it was asked for by URL, that URL's resolution, so that the resumed
/// route is the URL's route again (its handlers see `info.url`, its query and fragment).
struct PendingResume: Sendable {
    let destination: Destination
    let url: URLResolution?

    /// What the redirected request was going to. Its `url` is the one that named `destination`
    /// (the URL asked for, or one an earlier redirect named), so it always leads there.
    init(_ request: RouteRequest) {
        destination = request.destination
        url = request.url
    }

    /// A destination set aside without its URL: one a snapshot gave back (which saves no URL).
    init(destination: Destination) {
        self.destination = destination
        url = nil
    }
}
