import PortolanLua

/// A Lua 5.4 lexer, just enough for the linter to read an app's source: names, strings (decoded),
/// numbers and symbols, each with its line and byte range. Comments and whitespace are skipped.
///
/// It never fails: text it cannot read (an unfinished string) ends the token list, and the real
/// compiler reports the syntax error.
package struct LuaToken: Equatable {
    enum Kind: Equatable {
        case name(String)
        case string(String)
        case number
        /// Punctuation and operators: `{`, `==`, `...`, `::`.
        case symbol(String)
    }

    let kind: Kind
    /// 1-based.
    let line: Int
    /// UTF-8 byte offsets into the source.
    let start: Int
    let end: Int

    package var name: String? {
        if case .name(let name) = kind { return name }
        return nil
    }

    var string: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    package func isSymbol(_ text: String) -> Bool {
        kind == .symbol(text)
    }
}

package enum LuaTokenizer {
    package static func tokens(of source: String) -> [LuaToken] {
        var reader = Reader(bytes: Array(source.utf8))
        return reader.readAll()
    }

    /// The index of the `end` (or `until`) closing the block whose body starts at `index`; the
    /// token count when the source ends first.
    static func blockEnd(in tokens: [LuaToken], from index: Int) -> Int {
        var depth = 1
        var position = index
        while position < tokens.count {
            switch tokens[position].name {
            case "function", "if", "do", "repeat": depth += 1
            case "end", "until": depth -= 1
            default: break
            }
            if depth == 0 { return position }
            position += 1
        }
        return position
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var tokens: [LuaToken] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        func peek(_ offset: Int = 0) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }

        mutating func advance() {
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }

        mutating func readAll() -> [LuaToken] {
            // A first line starting with `#` (a shebang) is skipped, as lua.c does.
            if peek() == UInt8(ascii: "#") {
                while let byte = peek(), byte != UInt8(ascii: "\n") { advance() }
            }
            while let byte = peek() {
                let start = index, startLine = line
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0x0B, 0x0C:
                    advance()
                case UInt8(ascii: "-") where peek(1) == UInt8(ascii: "-"):
                    advance()
                    advance()
                    if let level = longBracketLevel() {
                        guard skipLongBracket(level: level) != nil else { return tokens }
                    } else {
                        while let next = peek(), next != UInt8(ascii: "\n") { advance() }
                    }
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    guard let text = readQuoted(byte) else { return tokens }
                    tokens.append(LuaToken(kind: .string(text), line: startLine, start: start, end: index))
                case UInt8(ascii: "[") where longBracketLevel() != nil:
                    let level = longBracketLevel() ?? 0
                    guard let text = skipLongBracket(level: level) else { return tokens }
                    tokens.append(LuaToken(kind: .string(text), line: startLine, start: start, end: index))
                case _ where isNameStart(byte):
                    while let next = peek(), isNameStart(next) || isDigit(next) { advance() }
                    let name = String(decoding: bytes[start..<index], as: UTF8.self)
                    tokens.append(LuaToken(kind: .name(name), line: startLine, start: start, end: index))
                case _ where isDigit(byte) || (byte == UInt8(ascii: ".") && peek(1).map(isDigit) == true):
                    readNumber()
                    tokens.append(LuaToken(kind: .number, line: startLine, start: start, end: index))
                default:
                    let symbol = readSymbol()
                    tokens.append(LuaToken(kind: .symbol(symbol), line: startLine, start: start, end: index))
                }
            }
            return tokens
        }

        /// At `[`: the level of a long bracket `[==[` starting here, or nil.
        func longBracketLevel() -> Int? {
            guard peek() == UInt8(ascii: "[") else { return nil }
            var level = 0
            while peek(1 + level) == UInt8(ascii: "=") { level += 1 }
            return peek(1 + level) == UInt8(ascii: "[") ? level : nil
        }

        /// Skips a long bracket and returns its contents, or nil when it is not closed.
        mutating func skipLongBracket(level: Int) -> String? {
            for _ in 0..<(level + 2) { advance() }
            // A newline right after the opening bracket is not part of the string.
            if peek() == UInt8(ascii: "\r") { advance() }
            if peek() == UInt8(ascii: "\n") { advance() }
            let contentStart = index
            while let byte = peek() {
                if byte == UInt8(ascii: "]") {
                    var equals = 0
                    while peek(1 + equals) == UInt8(ascii: "=") { equals += 1 }
                    if equals == level, peek(1 + equals) == UInt8(ascii: "]") {
                        let text = String(decoding: bytes[contentStart..<index], as: UTF8.self)
                        for _ in 0..<(level + 2) { advance() }
                        return text
                    }
                }
                advance()
            }
            return nil
        }

        /// A quoted string with its escapes decoded; nil when it does not end on its line.
        mutating func readQuoted(_ quote: UInt8) -> String? {
            advance()
            var decoded: [UInt8] = []
            while let byte = peek() {
                switch byte {
                case quote:
                    advance()
                    return String(decoding: decoded, as: UTF8.self)
                case UInt8(ascii: "\n"):
                    return nil
                case UInt8(ascii: "\\"):
                    advance()
                    guard let escaped = peek() else { return nil }
                    decoded += readEscape(escaped)
                default:
                    decoded.append(byte)
                    advance()
                }
            }
            return nil
        }

        private mutating func readEscape(_ escaped: UInt8) -> [UInt8] {
            let simple: [UInt8: UInt8] = [
                UInt8(ascii: "n"): 0x0A, UInt8(ascii: "t"): 0x09, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "a"): 0x07,
                UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "v"): 0x0B,
            ]
            if let value = simple[escaped] {
                advance()
                return [value]
            }
            switch escaped {
            case UInt8(ascii: "z"):
                advance()
                while let next = peek(), next == 0x20 || (next >= 0x09 && next <= 0x0D) { advance() }
                return []
            case UInt8(ascii: "x"):
                advance()
                var value: UInt8 = 0
                for _ in 0..<2 {
                    guard let digit = peek().flatMap(hexValue) else { break }
                    value = value &* 16 &+ digit
                    advance()
                }
                return [value]
            case UInt8(ascii: "u"):
                advance()
                guard peek() == UInt8(ascii: "{") else { return [] }
                advance()
                var value: UInt32 = 0
                while let digit = peek().flatMap(hexValue) {
                    value = value &* 16 &+ UInt32(digit)
                    advance()
                }
                if peek() == UInt8(ascii: "}") { advance() }
                return Unicode.Scalar(value).map { Array(String($0).utf8) } ?? []
            case _ where isDigit(escaped):
                var value = 0
                for _ in 0..<3 {
                    guard let digit = peek(), isDigit(digit) else { break }
                    value = value * 10 + Int(digit - UInt8(ascii: "0"))
                    advance()
                }
                return [UInt8(truncatingIfNeeded: value)]
            default:
                // `\\`, `\"`, `\'`, and a backslash-newline, which is a newline.
                advance()
                return [escaped]
            }
        }

        mutating func readNumber() {
            // Hex and decimal numbers, exponents included: exact values do not matter here.
            var previous: UInt8 = 0
            while let byte = peek() {
                let isExponentSign = (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"))
                    && [UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "p"), UInt8(ascii: "P")].contains(previous)
                guard isDigit(byte) || isNameStart(byte) || byte == UInt8(ascii: ".") || isExponentSign else { break }
                previous = byte
                advance()
            }
        }

        mutating func readSymbol() -> String {
            let three = ["..."]
            let two = ["==", "~=", "<=", ">=", "//", "::", "<<", ">>", ".."]
            for candidate in three + two {
                let utf8 = Array(candidate.utf8)
                if index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 {
                    for _ in utf8 { advance() }
                    return candidate
                }
            }
            let symbol = String(decoding: [bytes[index]], as: UTF8.self)
            advance()
            return symbol
        }

        func isNameStart(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || byte == UInt8(ascii: "_")
        }

        func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
    }
}
