/// SHA-1 (FIPS 180-4), for one thing only: the WebSocket handshake's `Sec-WebSocket-Accept`
/// (RFC 6455 fixes the hash; it protects nothing here). Foundation on Linux has no SHA-1.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var hash: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        let bitLength = UInt64(message.count) &* 8
        var padded = message + [0x80]
        padded += [UInt8](repeating: 0, count: (64 - (padded.count + 8) % 64) % 64)
        padded += (0..<8).reversed().map { UInt8(truncatingIfNeeded: bitLength >> ($0 * 8)) }
        for start in stride(from: 0, to: padded.count, by: 64) {
            compress(Array(padded[start..<start + 64]), into: &hash)
        }
        return hash.flatMap { word in (0..<4).reversed().map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }
    }

    private static func compress(_ block: [UInt8], into hash: inout [UInt32]) {
        var words = (0..<16).map { index in
            (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(block[index * 4 + $1]) }
        }
        for index in 16..<80 {
            words.append(rotate(words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], 1))
        }
        var (a, b, c, d, e) = (hash[0], hash[1], hash[2], hash[3], hash[4])
        for index in 0..<80 {
            let (mixed, constant): (UInt32, UInt32)
            switch index {
            case 0..<20: (mixed, constant) = ((b & c) | (~b & d), 0x5A82_7999)
            case 20..<40: (mixed, constant) = (b ^ c ^ d, 0x6ED9_EBA1)
            case 40..<60: (mixed, constant) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
            default: (mixed, constant) = (b ^ c ^ d, 0xCA62_C1D6)
            }
            let next = rotate(a, 5) &+ mixed &+ e &+ constant &+ words[index]
            (e, d, c, b, a) = (d, c, rotate(b, 30), a, next)
        }
        hash[0] &+= a
        hash[1] &+= b
        hash[2] &+= c
        hash[3] &+= d
        hash[4] &+= e
    }

    private static func rotate(_ word: UInt32, _ count: UInt32) -> UInt32 {
        word << count | word >> (32 - count)
    }
}
