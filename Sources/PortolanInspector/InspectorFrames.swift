import Foundation

/// The WebSocket frames of `/live` (RFC 6455): the states the server sends, and the few frames it
/// reads from the page.
///
/// The page sends no messages, so the server reads no data frames: a text, binary or continuation
/// frame ends the socket (1008) on its two-byte header, before its length is even read, so a huge
/// or unfinished frame costs nothing. Control frames are at most 125 bytes by the RFC (1002
/// otherwise): a ping or a pong is read and ignored (the page sends neither), a close ends the socket.
enum InspectorFrames {
    /// How a conversation ends: the close frame's code and reason, or nothing for a page gone.
    struct Ending: Sendable {
        let code: UInt16
        let reason: String

        static let pageClosed = Ending(code: 1000, reason: "")
        static let message = Ending(code: 1008, reason: "the inspector takes no messages")
        static let replaced = Ending(code: 1008, reason: "a newer inspector page took this one's place")
        static let protocolError = Ending(code: 1002, reason: "not a frame a page sends")
    }

    static let controlPayloadLimit = 125

    static func text(_ message: String) -> Data {
        frame(opcode: 0x1, payload: Array(message.utf8))
    }

    static func close(_ ending: Ending) -> Data {
        frame(opcode: 0x8, payload: [UInt8(ending.code >> 8), UInt8(ending.code & 0xFF)] + Array(ending.reason.utf8))
    }

    /// One final, unmasked frame.
    private static func frame(opcode: UInt8, payload: [UInt8]) -> Data {
        var bytes: [UInt8] = [0x80 | opcode]
        if payload.count <= 125 {
            bytes.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            let length = UInt64(payload.count)
            bytes.append(127)
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) }
        }
        return Data(bytes + payload)
    }

    /// Reads the page's frames until one ends the conversation; nil when the page has gone (or
    /// the read was cancelled), with nothing more to say to it.
    static func watch(_ reader: inout InspectorByteReader) async -> Ending? {
        while true {
            guard let header = try? await reader.read(exactly: 2) else { return nil }
            let opcode = header[0] & 0x0F
            let length = Int(header[1] & 0x7F)
            switch opcode {
            case 0x0, 0x1, 0x2:
                return .message
            case 0x8, 0x9, 0xA:
                // Final, unextended, masked (as every client's frame must be), no extension bits.
                guard header[0] & 0xF0 == 0x80, header[1] & 0x80 != 0, length <= controlPayloadLimit else {
                    return .protocolError
                }
                guard (try? await reader.read(exactly: 4 + length)) != nil else { return nil }
                if opcode == 0x8 { return .pageClosed }
            default:
                return .protocolError
            }
        }
    }
}
