import FlyingSocks

/// Reads a client's bytes in small, bounded steps: a request head up to a cap, then exactly the
/// few bytes a WebSocket frame's header or a control frame's payload needs. Nothing is read ahead
/// beyond one 4 KiB read, and what was read past a request head is kept for the frames after it.
struct InspectorByteReader: Sendable {
    /// Why a read ended early.
    enum Failure: Error {
        /// The head grew past its cap without its blank line.
        case tooLarge
    }

    let socket: AsyncSocket
    private var pending: [UInt8] = []

    init(socket: AsyncSocket) {
        self.socket = socket
    }

    /// The bytes up to and including the blank line that ends a request head; throws `tooLarge`
    /// when `limit` bytes hold none.
    mutating func readHead(limit: Int) async throws -> [UInt8] {
        var searched = 0
        while true {
            if let end = Self.blankLineEnd(in: pending, from: searched) {
                let head = Array(pending[..<end])
                pending.removeFirst(end)
                return head
            }
            guard pending.count < limit else { throw Failure.tooLarge }
            searched = max(0, pending.count - 3)
            pending += try await socket.read(atMost: min(4096, limit - pending.count))
        }
    }

    /// Exactly `count` bytes (a few: a frame's header, a mask, a control payload).
    mutating func read(exactly count: Int) async throws -> [UInt8] {
        while pending.count < count {
            pending += try await socket.read(atMost: count - pending.count)
        }
        let bytes = Array(pending.prefix(count))
        pending.removeFirst(count)
        return bytes
    }

    /// Where the first CR LF CR LF at or after `start` ends.
    private static func blankLineEnd(in bytes: [UInt8], from start: Int) -> Int? {
        let blankLine: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4 else { return nil }
        for index in start...(bytes.count - 4) where Array(bytes[index..<index + 4]) == blankLine {
            return index + 4
        }
        return nil
    }
}
