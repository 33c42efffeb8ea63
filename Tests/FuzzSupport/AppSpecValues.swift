import TestSupport

/// The values of an app script's fields, as Lua expressions, right and wrong.
enum AppSpecValues {
    /// A fresh id, or now and then (in a hostile script) one from a small pool, so that some
    /// repeat, or a hostile one.
    static func id(_ text: inout AppText, _ random: inout SeededRandom) -> String {
        guard text.hostileID(&random) else {
            text.nextID += 1
            return "\"n\(text.nextID)\""
        }
        switch random.int(in: 0...9) {
        case 0: return literal([])
        case 1: return literal([0x6E, 0xFF, 0x31])                               // not UTF-8
        case 2: return literal(Array("n\u{1}\u{1B}[31m\n".utf8))                 // control characters
        case 3: return literal([0x6E, 0x00, 0x31])                               // a NUL
        case 4: return "string.rep(\"x\", \(random.element([300, 5_000, 100_000])))"   // very long
        case 5: return random.element(["42", "true", "{}", "nil", "function() end"])    // not a string
        case 6: return random.element([#""\u{E9}""#, #""e\u{301}""#])            // é twice, as Swift sees it
        case 7: return literal(Array("n\(random.int(in: 0...9))".utf8) + [0xC3])  // a cut sequence
        default: return "\"n\(random.int(in: 1...9))\""                          // perhaps declared already
        }
    }

    /// A switch's `active` that is no child of it.
    static func strayActive(_ random: inout SeededRandom) -> String {
        random.element(["1", literal([]), "true", literal([0xFF]), "\"n\(random.int(in: 0...29))\""])
    }

    /// `route`: one pattern, a list of them, or something of the wrong type.
    static func route(_ text: inout AppText, _ random: inout SeededRandom) -> String {
        if text.hostile(&random) { return random.element(["42", "true", "{ 42 }", "{ {} }"]) }
        guard random.oneIn(3) else { return pattern(&text, &random) }
        return "{ " + (0..<random.int(in: 0...3)).map { _ in pattern(&text, &random) }.joined(separator: ", ") + " }"
    }

    private static let patternSegments = ["a", "b", "movies", ":id<int>", ":x<uuid>", ":v{[a-z]+}", ":w{en|fr}", "*", "é", "A"]
    private static let hostileSegments = [":", "<int>", ":id<float>", "{", ":v{[}", "%", "\u{1}", "**", ":id", ":id", "**rest", "%2F", ""]

    /// A URL pattern: a fresh constant first, then segments that may clash with other
    /// patterns; in a hostile script, anything (unknown types, broken validators, a `**` before
    /// the end, repeated parameter names, stray `%`).
    static func pattern(_ text: inout AppText, _ random: inout SeededRandom) -> String {
        let prefix = random.oneIn(8) ? random.element(["https://h.com", "myapp://x"]) : ""
        var segments = (0..<random.int(in: 0...3)).map { _ in random.element(patternSegments) }
        if text.hostilePattern(&random) {
            segments.insert(random.element(hostileSegments), at: random.int(in: 0...segments.count))
        } else {
            // Each parameter name once, `**` only last.
            var named: Set<String> = []
            let distinct = segments.filter { !$0.hasPrefix(":") || named.insert($0).inserted }
            segments = ["p\(random.int(in: 0...99_999))"] + distinct + (random.oneIn(5) ? ["**rest"] : [])
        }
        return literal(Array((prefix + "/" + segments.joined(separator: "/")).utf8))
    }

    /// A handler: a function that succeeds, refuses, raises, returns something odd, denies or
    /// redirects; or a value that is not a function.
    static func handler(_ field: String, _ text: inout AppText, _ random: inout SeededRandom) -> String {
        if text.hostile(&random) { return random.element(["42", #""enter""#, "{}", "true"]) }
        let target = "\"n\(random.int(in: 1...max(1, text.nextID)))\""
        let bodies = [
            "", "return true", "return false", #"return false, "refused""#, #"error("boom")"#, "return 42",
            "error({})", "return nil, 1",
        ]
        let guards = [
            #"return portolan.deny("no")"#, "return portolan.redirect({ \(target) })",
            "return portolan.redirect({ \(target) }, { resume = true })",
            "if request:goes_to(\(target)) then return false end",
        ]
        let body = field == "guard" && random.oneIn(2) ? random.element(guards) : random.element(bodies)
        return "function(node, request) \(body) end"
    }

    /// A Lua string literal holding exactly `bytes`: printable ASCII as it is, the rest escaped.
    static func literal(_ bytes: [UInt8]) -> String {
        var text = "\""
        for byte in bytes {
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\" + String(byte).leftPadded(to: 3)
            }
        }
        return text + "\""
    }
}

extension String {
    /// The string with zeros before it, to `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
