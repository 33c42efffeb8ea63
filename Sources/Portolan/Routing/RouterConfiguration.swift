/// Limits the router keeps so that no handler or interceptor can hang it.
public struct RouterConfiguration: Sendable {
    /// How long one handler or interceptor may take; nil waits forever.
    public var handlerTimeout: Duration?
    /// How many redirects one route may follow before it fails as `invalid`.
    public var maxRedirects: Int

    public init(handlerTimeout: Duration? = .seconds(30), maxRedirects: Int = 8) {
        self.handlerTimeout = handlerTimeout
        self.maxRedirects = maxRedirects
    }
}
