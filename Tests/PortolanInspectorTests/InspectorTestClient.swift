import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A client of the inspector at the byte level, on a blocking socket of 127.0.0.1: it sends what a
/// browser, a hostile page or a broken program would, and reads what the server answers.
///
/// Every read waits at most `patience` seconds (generous, for a loaded machine): a server that
/// neither answers nor closes in that time fails the test that waits. Each blocking call runs on a
/// thread of its own (`offThePool`): the server under test runs its tasks in this process, on the
/// few threads of Swift's cooperative pool, which a blocked client must not hold.
final class InspectorTestClient: Sendable {
    static let patience = 60
    private let descriptor: CInt

    /// Connected to 127.0.0.1:`port`; nil when the connection is refused.
    init?(port: UInt16) {
        let descriptor = socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        var wait = timeval(tv_sec: Self.patience, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Sends every byte; false when the server has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) async -> Bool {
        await offThePool { self.blockingSend(bytes) }
    }

    private func blockingSend(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    func send(_ text: String) async -> Bool {
        await send(Array(text.utf8))
    }

    /// A GET of `target` with the headers given (Host first when there is one), as one request head.
    func get(_ target: String, headers: [(String, String)]) async {
        var head = "GET \(target) HTTP/1.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        await send(head + "\r\n")
    }

    /// What the server sends until it closes the connection (or `limit` bytes); nil when it neither
    /// closes nor sends more within `patience`.
    func readToEnd(limit: Int = 1 << 20) async -> [UInt8]? {
        await offThePool { self.blockingReadToEnd(limit: limit) }
    }

    private func blockingReadToEnd(limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count < limit {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == ECONNRESET { return bytes }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += buffer.prefix(count)
        }
        return bytes
    }

    /// The response's head (up to the blank line), read a byte at a time so that nothing after it
    /// is consumed; nil when the server closes or says nothing first.
    func readHead() async -> String? {
        await offThePool { self.blockingReadHead() }
    }

    private func blockingReadHead() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 16384 {
            let count = recv(descriptor, &byte, 1, 0)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return nil }
            bytes.append(byte)
            if bytes.suffix(4) == [13, 10, 13, 10] { return String(decoding: bytes, as: UTF8.self) }
        }
        return nil
    }

    /// Exactly `count` bytes; nil when the connection ends or stalls first.
    private func read(exactly count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count < count {
            let received = recv(descriptor, &buffer, min(buffer.count, count - bytes.count), 0)
            if received < 0, errno == EINTR { continue }
            guard received > 0 else { return nil }
            bytes += buffer.prefix(received)
        }
        return bytes
    }

    /// One frame from the server: its opcode and payload (unmasked, as a server sends).
    func readFrame() async -> (opcode: UInt8, payload: [UInt8])? {
        await offThePool { self.blockingReadFrame() }
    }

    private func blockingReadFrame() -> (opcode: UInt8, payload: [UInt8])? {
        guard let header = read(exactly: 2) else { return nil }
        var length = Int(header[1] & 0x7F)
        if length == 126 {
            guard let extended = read(exactly: 2) else { return nil }
            length = Int(extended[0]) << 8 | Int(extended[1])
        } else if length == 127 {
            guard let extended = read(exactly: 8) else { return nil }
            length = extended.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let payload = read(exactly: length) else { return nil }
        return (header[0] & 0x0F, payload)
    }

    /// Whether the server ends the connection (after any frames or bytes it sends first) within
    /// `patience`; false when it keeps it open.
    func isClosedByServer() async -> Bool {
        await readToEnd(limit: Int.max) != nil
    }
}

/// `body`'s result, computed on a new thread while the calling task waits without holding one.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// What a browser's WebSocket sends: masked frames, and the upgrade request's headers.
enum ClientFrames {
    static func masked(opcode: UInt8, payload: [UInt8], fin: Bool = true) -> [UInt8] {
        header(opcode: opcode, length: payload.count, fin: fin) + masking(payload)
    }

    /// A frame's head announcing `length` bytes, masked; its payload is for the caller to send, or not.
    static func header(opcode: UInt8, length: Int, fin: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if length <= 125 {
            bytes.append(0x80 | UInt8(length))
        } else if length <= 65535 {
            bytes += [0x80 | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            bytes += (0..<8).reversed().map { UInt8((length >> ($0 * 8)) & 0xFF) }
        }
        return bytes + mask
    }

    static let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]

    static func masking(_ payload: [UInt8]) -> [UInt8] {
        payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    static func upgradeHeaders(host: String, origin: String?) -> [(String, String)] {
        var headers = [("Host", host), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                       ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13")]
        if let origin { headers.append(("Origin", origin)) }
        return headers
    }
}
