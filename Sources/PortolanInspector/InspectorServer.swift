import FlyingFox
import FlyingSocks
import Foundation
import Portolan

#if canImport(Glibc)
import Glibc
#endif

/// `portolan repl --inspect`: an HTTP server on 127.0.0.1 only, in the `portolan-inspector`
/// process, serving the inspector's page (`/`), its state as JSON (`/state`) and a WebSocket
/// (`/live`) that sends the state again after every REPL line that changed it. FlyingFox does the
/// HTTP and the WebSocket.
///
/// A page that closes, a client that vanishes mid-message or a slow one never reaches the REPL:
/// sends use `MSG_NOSIGNAL` and `start` ignores SIGPIPE besides, and each page has a buffer of
/// one state (`InspectorFeed`).
public final class InspectorServer: Sendable {
    /// The port it listens on (the one the system chose, for port 0).
    public let port: UInt16
    /// The states it serves: what the REPL sends.
    public let feed: InspectorFeed
    private let server: HTTPServer
    private let task: Task<Void, Never>

    /// The page's address.
    public var url: String { "http://127.0.0.1:\(port)/" }

    private init(port: UInt16, feed: InspectorFeed, server: HTTPServer, task: Task<Void, Never>) {
        self.port = port
        self.feed = feed
        self.server = server
        self.task = task
    }

    /// Listens on 127.0.0.1:`port` (0: a free port the system picks). Throws when it cannot,
    /// naming the port and why (taken, or not allowed).
    public static func start(port: UInt16) async throws(InspectorStartError) -> InspectorServer {
        signal(SIGPIPE, SIG_IGN)
        let address: sockaddr_in
        do {
            address = try .inet(ip4: "127.0.0.1", port: port)
        } catch {
            throw InspectorStartError(port: port, reason: .other("\(error)"))
        }
        let feed = InspectorFeed()
        let server = HTTPServer(address: address, timeout: 30, logger: .disabled, handler: routes(feed))
        let failure = Locked<(any Error)?>(nil)
        let task = Task {
            do { try await server.run() } catch { failure.value = error }
        }
        // Either the socket listens or `run` fails while binding: whichever comes first.
        while await !server.isListening {
            if let error = failure.value {
                throw InspectorStartError(port: port, error: error)
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        var listening = port
        if case .ip4(_, let chosen)? = await server.listeningAddress { listening = chosen }
        return InspectorServer(port: listening, feed: feed, server: server, task: task)
    }

    /// Closes the listening socket and the pages' connections.
    public func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
    }

    private static func routes(_ feed: InspectorFeed) -> RoutedHTTPHandler {
        var routes = RoutedHTTPHandler()
        routes.appendRoute("GET /live", to: WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: InspectorSocket(feed: feed))))
        routes.appendRoute("GET /state") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                         body: Data(feed.currentMessage.utf8))
        }
        routes.appendRoute("GET /") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                         body: Data(PackageResources.InspectorPage_html))
        }
        return routes
    }
}

/// Why the inspector could not listen.
public struct InspectorStartError: Error, CustomStringConvertible {
    public enum Reason: Sendable {
        case taken, notAllowed, other(String)
    }

    public let port: UInt16
    public let reason: Reason

    init(port: UInt16, reason: Reason) {
        self.port = port
        self.reason = reason
    }

    init(port: UInt16, error: any Error) {
        switch error as? SocketError {
        case .failed(_, EADDRINUSE, _)?: self.init(port: port, reason: .taken)
        case .failed(_, EACCES, _)?: self.init(port: port, reason: .notAllowed)
        default: self.init(port: port, reason: .other("\(error)"))
        }
    }

    /// What the REPL says, with how to pick another port.
    public var description: String {
        let how = "pick another with --inspect PORT, or --inspect 0 for any free one"
        switch reason {
        case .taken: return "the inspector's port \(port) on 127.0.0.1 is taken by another program: \(how)"
        case .notAllowed: return "the inspector may not listen on port \(port) (a port under 1024 needs privileges): \(how)"
        case .other(let message): return "the inspector cannot listen on 127.0.0.1:\(port): \(message); \(how)"
        }
    }
}
