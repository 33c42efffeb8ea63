/// The optional parts of a pattern's path, expanded into the plain paths it stands for, as
/// path-to-regexp 8 expands its groups: `/docs{/:section}` is `/docs/:section` and `/docs`, and
/// `/users/:id?` (Vue Router's spelling for a whole optional segment) is `/users/:id` and `/users`.
///
/// - `{…}` is a group, optional as a whole; groups nest. Right after a parameter's name, braces are
///   that parameter's validator (`:slug{[a-z]+}`), unless what they hold starts with `/` or holds
///   a parameter (`/:foo{/test/:bar}`, `/:file{.:ext}`): a validator never needs either (a
///   validator's literal `:` is written `\:`).
/// - `?` right after a parameter that is its whole segment (`/:id?`, `/:id<int>?`) makes the
///   segment optional; anywhere else it is an error.
///
/// Each path is a list of offsets into the pattern's bytes, so that an error in one of them can
/// name its place in the pattern as written. Paths are listed with each group taken before it is
/// left out; at most ``maximumCount`` of them, so that a pattern of many groups cannot grow the
/// trie exponentially (path-to-regexp caps its expansion the same way).
enum PatternAlternatives {
    static let maximumCount = 64

    /// One piece of the pattern: bytes kept as they are, or an optional group.
    private indirect enum Item {
        case bytes([Int])
        case group([Item])
    }

    /// The paths of `bytes[range]`, each as offsets into `bytes`.
    static func expand(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, pattern: String) throws(URLRoutingError) -> [[Int]] {
        var reader = GroupReader(bytes: bytes, pattern: pattern, index: range.lowerBound, end: range.upperBound)
        let items = try reader.readSequence(closing: false)
        return try paths(of: items, pattern: pattern)
    }

    private static func paths(of items: [Item], pattern: String) throws(URLRoutingError) -> [[Int]] {
        var paths: [[Int]] = [[]]
        for item in items {
            switch item {
            case .bytes(let offsets):
                for index in paths.indices { paths[index] += offsets }
            case .group(let inner):
                let choices = try self.paths(of: inner, pattern: pattern) + [[]]
                guard paths.count * choices.count <= maximumCount else {
                    throw .tooManyAlternatives(pattern: pattern, limit: maximumCount)
                }
                paths = paths.flatMap { path in choices.map { path + $0 } }
            }
        }
        return paths
    }

    /// The offset of the `}` that closes the `{` at `open`, skipping escapes, classes and nested
    /// braces (a validator's `{3}` does not close it), or `nil`.
    static func closingBrace(in bytes: UnsafeBufferPointer<UInt8>, from open: Int, end: Int) -> Int? {
        var depth = 0
        var inClass = false
        var index = open
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                index += 1
            case UInt8(ascii: "[") where !inClass:
                inClass = true
                // `]` right after `[` or `[^` is literal.
                if index + 1 < end && bytes[index + 1] == UInt8(ascii: "^") { index += 1 }
                if index + 1 < end && bytes[index + 1] == UInt8(ascii: "]") { index += 1 }
            case UInt8(ascii: "]") where inClass:
                inClass = false
            case UInt8(ascii: "{") where !inClass:
                depth += 1
            case UInt8(ascii: "}") where !inClass:
                depth -= 1
                if depth == 0 { return index }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    private struct GroupReader {
        let bytes: UnsafeBufferPointer<UInt8>
        let pattern: String
        var index: Int
        let end: Int

        /// Reads items up to the end, or up to the `}` that closes a group when `closing`.
        mutating func readSequence(closing: Bool) throws(URLRoutingError) -> [Item] {
            let open = index - 1
            var items: [Item] = []
            var kept: [Int] = []
            // Where the current segment's `/` is in `items` (after flushing `kept`), so that a
            // `?` can make the segment a group.
            var segmentStart: (item: Int, offset: Int)?
            func flush() {
                if !kept.isEmpty { items.append(.bytes(kept)) }
                kept = []
            }
            while index < end {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"):
                    if let close = validatorEnd(at: index) {
                        kept += Array(index...close)
                        index = close + 1
                        continue
                    }
                    flush()
                    index += 1
                    let inner = try readSequence(closing: true)
                    guard !inner.isEmpty else { throw .emptyGroup(pattern: pattern, offset: index - 2) }
                    items.append(.group(inner))
                    segmentStart = nil
                    continue
                case UInt8(ascii: "}"):
                    guard closing else { throw .unbalancedGroup(pattern: pattern, offset: index) }
                    index += 1
                    flush()
                    return items
                case UInt8(ascii: "/"):
                    flush()
                    segmentStart = (items.count, index)
                    kept.append(index)
                case UInt8(ascii: "?"):
                    guard let start = segmentStart, isWholeSegmentParameter(from: start.offset + 1, to: index),
                        index + 1 == end || [UInt8(ascii: "/"), UInt8(ascii: "}")].contains(bytes[index + 1])
                    else { throw .misplacedOptional(pattern: pattern, offset: index) }
                    flush()
                    let segment = Array(items[start.item...])
                    items.removeSubrange(start.item...)
                    items.append(.group(segment))
                    segmentStart = nil
                default:
                    kept.append(index)
                }
                index += 1
            }
            guard !closing else { throw .unbalancedGroup(pattern: pattern, offset: open) }
            flush()
            return items
        }

        /// Whether `bytes[start..<end]` is one parameter, `:name` or `:name<type>`.
        private func isWholeSegmentParameter(from start: Int, to end: Int) -> Bool {
            guard start < end, bytes[start] == UInt8(ascii: ":") else { return false }
            var index = start + 1
            while index < end, isNameByte(bytes[index]) { index += 1 }
            guard index > start + 1 else { return false }
            if index < end, bytes[index] == UInt8(ascii: "<") {
                guard let close = (index..<end).first(where: { bytes[$0] == UInt8(ascii: ">") }) else { return false }
                index = close + 1
            }
            return index == end
        }

        /// The `}` of a validator's braces opened at `open`, when they follow a parameter's name
        /// and are not a group's; `nil` when the brace opens a group.
        private func validatorEnd(at open: Int) -> Int? {
            var nameStart = open
            while nameStart > 0, isNameByte(bytes[nameStart - 1]) { nameStart -= 1 }
            guard nameStart < open, nameStart > 0, bytes[nameStart - 1] == UInt8(ascii: ":") else { return nil }
            // Unclosed: the segment reader reports it where the validator starts.
            let close = PatternAlternatives.closingBrace(in: bytes, from: open, end: end) ?? end - 1
            if open + 1 < end, bytes[open + 1] == UInt8(ascii: "/") { return nil }
            var index = open + 1
            while index < close {
                if bytes[index] == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if bytes[index] == UInt8(ascii: ":"), index + 1 < close, isNameByte(bytes[index + 1]) { return nil }
                index += 1
            }
            return close
        }

        private func isNameByte(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
    }
}
