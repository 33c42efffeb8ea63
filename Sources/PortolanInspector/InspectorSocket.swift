import Crypto
import FlyingSocks
import Foundation

/// The page's WebSocket (`/live`): the feed's states as text frames, until the page closes, sends
/// what a page never sends (`InspectorFrames`), stops reading, or a newer page takes its place.
enum InspectorSocket {
    /// How long a state may take to reach the page. A browser reads its sockets whatever its tab
    /// does, so only a client that stopped reading takes this long, and it is let go.
    static let sendSeconds = 10.0

    /// The 101 answer to a valid upgrade request; nil when it is not one.
    static func handshake(for request: InspectorRequest) -> String? {
        guard request.field("upgrade")?.lowercased() == "websocket",
              let connection = request.field("connection"),
              connection.lowercased().split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "upgrade" }),
              request.field("sec-websocket-version") == "13",
              let key = request.field("sec-websocket-key"), Data(base64Encoded: key)?.count == 16
        else { return nil }
        let accept = Data(Insecure.SHA1.hash(data: Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
        return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
    }

    /// Sends the states to the page and watches its frames, until either ends; then says why in a
    /// close frame when the page can still hear it.
    static func serve(_ reader: InspectorByteReader, feed: InspectorFeed) async {
        let socket = reader.socket
        let states = feed.subscribe()
        let ending = await withTaskGroup(of: InspectorFrames.Ending?.self) { group in
            group.addTask {
                for await state in states {
                    let frame = InspectorFrames.text(state)
                    do {
                        try await withDeadline(seconds: sendSeconds) { try await socket.write(frame) }
                    } catch {
                        return nil
                    }
                }
                return Task.isCancelled ? nil : .replaced
            }
            group.addTask {
                var reader = reader
                return await InspectorFrames.watch(&reader)
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        // One attempt that never waits: a page that does not read it is gone anyway.
        if let ending { _ = try? socket.socket.write(InspectorFrames.close(ending)) }
    }
}
