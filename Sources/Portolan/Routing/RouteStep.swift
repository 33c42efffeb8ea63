/// An event of the app that asked for a route (RxFlow's step): `movie_picked { id = 42 }`. It
/// travels with the route it led to, so interceptors, handlers and observers can tell why it runs.
public struct RouteStep: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    /// Flat values, as an entry's context holds.
    public var payload: Context

    public init(_ name: String, payload: Context = [:]) {
        self.name = name
        self.payload = payload
    }

    /// `movie_picked {id=42}`, as entries print.
    public var description: String {
        Entry(name, context: payload).description
    }
}
