import FlyingFox
import Foundation

/// The page's WebSocket (`/live`): the feed's states as text messages, until either side closes.
/// What the page sends is read and ignored, so its closing is noticed at once.
struct InspectorSocket: WSMessageHandler {
    let feed: InspectorFeed

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        guard let states = feed.subscribe() else {
            return AsyncStream { continuation in
                continuation.yield(.close(WSCloseCode(4000, reason: "too many inspector pages are open")))
                continuation.finish()
            }
        }
        let (messages, continuation) = AsyncStream.makeStream(of: WSMessage.self, bufferingPolicy: .bufferingNewest(1))
        let forward = Task {
            for await state in states { continuation.yield(.text(state)) }
            continuation.finish()
        }
        let watch = Task {
            for await _ in client {}
            forward.cancel()
            continuation.finish()
        }
        continuation.onTermination = { _ in
            forward.cancel()
            watch.cancel()
        }
        return messages
    }
}
