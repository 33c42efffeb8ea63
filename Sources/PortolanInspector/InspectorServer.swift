import FlyingSocks
import Foundation
import Portolan

#if canImport(Glibc)
import Glibc
#endif

/// `portolan repl --inspect`: an HTTP server on 127.0.0.1 only, in the `portolan-inspector`
/// process, serving the inspector's page (`/`), its state as JSON (`/state`) and a WebSocket
/// (`/live`) that sends the state again after every REPL line that changed it.
///
/// Only the user's own page is answered (`InspectorAccess`: host, origin and the URL's token), and
/// no client can make it hold much: a request head is at most 8 KiB and must arrive within 5 s,
/// the page's socket reads no data frames, and idle sockets give way (`InspectorConnections`).
/// FlyingFox's HTTP server would buffer a whole WebSocket frame of any size before its handler
/// sees it and wait without end for a request, so the inspector speaks its few requests itself, on
/// FlyingSocks' sockets.
///
/// A page that closes, a client that vanishes mid-message or a slow one never reaches the REPL:
/// sends use `MSG_NOSIGNAL` and `start` ignores SIGPIPE besides, and each page has a buffer of
/// one state (`InspectorFeed`).
public final class InspectorServer: Sendable {
    /// The port it listens on (the one the system chose, for port 0).
    public let port: UInt16
    /// The states it serves: what the REPL sends.
    public let feed: InspectorFeed
    private let access: InspectorAccess
    private let listener: AsyncSocket
    private let connections = InspectorConnections()
    private let tasks: Locked<[Task<Void, Never>]> = Locked([])

    /// The page's address, with its token: the one place the token is written.
    public var url: String { "http://127.0.0.1:\(port)/?token=\(access.token)" }

    private init(port: UInt16, listener: AsyncSocket) {
        self.port = port
        self.feed = InspectorFeed()
        self.access = InspectorAccess(port: port)
        self.listener = listener
    }

    /// Listens on 127.0.0.1:`port` (0: a free port the system picks). Throws when it cannot,
    /// naming the port and why (taken, or not allowed).
    public static func start(port: UInt16) async throws(InspectorStartError) -> InspectorServer {
        signal(SIGPIPE, SIG_IGN)
        let pool: some AsyncSocketPool = .make()
        let server: InspectorServer
        do {
            try await pool.prepare()
            let socket = try Socket(domain: AF_INET)
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: sockaddr_in.inet(ip4: "127.0.0.1", port: port))
            try socket.listen()
            var listening = port
            if case .ip4(_, let chosen) = try socket.sockname() { listening = chosen }
            server = InspectorServer(port: listening, listener: try AsyncSocket(socket: socket, pool: pool))
        } catch {
            throw InspectorStartError(port: port, error: error)
        }
        server.tasks.withLock { $0 = [Task { try? await pool.run() }, Task { await server.accept() }] }
        return server
    }

    /// Closes the listening socket and the pages' connections.
    public func stop() async {
        for task in tasks.value { task.cancel() }
        connections.stop()
        try? listener.close()
    }

    private func accept() async {
        while !Task.isCancelled {
            guard let socket = try? await listener.accept() else {
                // Out of descriptors, say: the connections in hand end within seconds; wait for that.
                try? await Task.sleep(for: .milliseconds(100))
                continue
            }
            connections.open { [self] id in
                await serve(socket, id: id)
                connections.close(id)
            }
        }
    }

    /// Reads one request (within its deadline), checks who asks, and answers it.
    private func serve(_ socket: AsyncSocket, id: Int) async {
        defer { try? socket.close() }
        let read: (InspectorRequest?, InspectorByteReader)
        do {
            read = try await withDeadline(seconds: InspectorConnections.requestSeconds) {
                var reader = InspectorByteReader(socket: socket)
                let head = try await reader.readHead(limit: InspectorRequest.headLimit)
                return (InspectorRequest(head: head), reader)
            }
        } catch {
            return   // too slow, too large, or gone: nothing worth an answer
        }
        guard let request = read.0 else {
            return await answer(socket, InspectorResponse(status: 400, text: "not an HTTP/1.1 request"))
        }
        let isWebSocket = request.path == "/live"
        if let refusal = access.refusal(of: request, isWebSocket: isWebSocket) {
            return await answer(socket, InspectorResponse(status: 403, text: refusal))
        }
        guard request.method == "GET" else {
            return await answer(socket, InspectorResponse(status: 405, text: "the inspector answers GET only"))
        }
        switch request.path {
        case "/": await answer(socket, .page)
        case "/state": await answer(socket, InspectorResponse(status: 200, json: feed.currentMessage))
        case "/live":
            guard let handshake = InspectorSocket.handshake(for: request) else {
                return await answer(socket, InspectorResponse(status: 400, text: "not a WebSocket handshake"))
            }
            guard (try? await withDeadline(seconds: InspectorSocket.sendSeconds, { try await socket.write(Data(handshake.utf8)) })) != nil
            else { return }
            connections.becomePage(id)
            await InspectorSocket.serve(read.1, feed: feed)
        default: await answer(socket, InspectorResponse(status: 404, text: "no such page"))
        }
    }

    private func answer(_ socket: AsyncSocket, _ response: InspectorResponse) async {
        let bytes = response.bytes
        _ = try? await withDeadline(seconds: InspectorSocket.sendSeconds) { try await socket.write(bytes) }
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
