/// Percent-decoding of one URL component (a path segment, a query name or value, the fragment,
/// a pattern's constant), shared by URLs and patterns so that both read `%2F` alike.
enum PercentDecoding {
    /// Decodes `bytes[range]` once. Throws on `%` without two hex digits, on a decoded control
    /// character, and on decoded bytes that are not UTF-8. Without `%` the bytes are returned as
    /// they are: they come from a Swift string and are cut at ASCII delimiters, so they are
    /// already valid UTF-8 and need neither a copy nor a check.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(URLRoutingError) -> String {
        var hasEscape = false
        for index in range where bytes[index] == UInt8(ascii: "%") {
            hasEscape = true
            break
        }
        guard hasEscape else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                index += 1
                continue
            }
            guard index + 2 < range.upperBound, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            else { throw .invalidPercentEscape(offset: index) }
            let value = high << 4 | low
            if value < 0x20 || value == 0x7F { throw .controlCharacter(offset: index) }
            decoded.append(value)
            index += 3
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw .invalidUTF8(offset: range.lowerBound)
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
