import TestSupport

/// Random app scripts, `portolan.app { … }` as Lua text, one field a line so that an error names
/// a line: ids empty, duplicated, not UTF-8, with control characters, very long, of the wrong type;
/// kinds, `active`, `children`, `keep`, `back`, `route` and handlers as docs/rules.md documents them,
/// right and wrong; root options in and out of range; anywhere nodes; nesting up to a few levels,
/// and chains around the engine's depth limit; now and then a syntax error.
///
/// A third of the scripts are written without a hostile field (they should load), the rest with
/// one field in 200, 100, 40 or 10 hostile; ids and URL patterns have hostility rates of their own,
/// so that the first error is now one the module's checks find, now one only the whole graph
/// shows (a duplicate id, a pattern that does not parse, two that are ambiguous).
public struct AppSpecs {
    public init() {}

    public func make(_ random: inout SeededRandom) -> String {
        var text = AppText(
            hostility: random.element([0, 0, 200, 100, 40, 10]), idHostility: random.element([0, 0, 0, 30, 8]),
            patternHostility: random.element([0, 0, 0, 20, 5]))
        if random.oneIn(2) { text.line(#"local portolan = require "portolan""#) }
        if random.oneIn(25) {
            chain(&text, &random)
        } else {
            text.line("portolan.app {")
            node(&text, &random, depth: 0)
            rootOptions(&text, &random)
            anywhere(&text, &random)
            text.line("}")
        }
        extras(&text, &random)
        if text.hostile(&random) && random.oneIn(10) {
            let index = random.int(in: 0...text.lines.count - 1)
            text.lines[index] += " @@"   // never valid Lua: a syntax error on that line
        }
        return text.lines.joined(separator: "\n") + "\n"
    }

    /// A chain of nodes built by a loop, around the depth limit (1,000 levels) and past it.
    private func chain(_ text: inout AppText, _ random: inout SeededRandom) {
        let depth = random.element([2, 999, 1_000, 1_001, 1_004, 1_005, 1_006, 2_010])
        text.line(#"local node = { id = "n\#(depth)", route = "/deep" }"#)
        text.line(#"for i = \#(depth - 1), 1, -1 do node = { id = "n" .. i, children = { node } } end"#)
        text.line("portolan.app(node)")
    }

    /// Writes a node's fields; returns its id as Lua text.
    @discardableResult
    private func node(_ text: inout AppText, _ random: inout SeededRandom, depth: Int) -> String {
        let id = AppSpecValues.id(&text, &random)
        if !text.hostile(&random) || !random.oneIn(4) { text.line("id = \(id),") }
        let isSwitch = random.oneIn(3)
        if text.hostile(&random) {
            text.line(random.element([#"kind = "tab","#, "kind = 42,", ""]))
        } else if isSwitch || random.oneIn(2) {
            text.line(isSwitch ? #"kind = "switch","# : #"kind = "screen","#)
        }
        if random.oneIn(12) { text.line("keep = \(text.hostile(&random) ? #""yes""# : isSwitch ? "true" : "false"),") }
        if random.oneIn(12) && isSwitch || text.hostile(&random) && random.oneIn(6) {
            text.line(#"back = "\#(isSwitch && !text.hostile(&random) ? "history" : "forward")","#)
        }
        if random.oneIn(4) { text.line("route = \(AppSpecValues.route(&text, &random)),") }
        for field in ["enter", "leave", "switch", "can_leave", "guard", "context_task"] where random.oneIn(7) {
            text.line("\(field) = \(AppSpecValues.handler(field, &text, &random)),")
        }
        if random.oneIn(30) { text.line("on_enter = function() end, kepp = true,") }
        let children = self.children(&text, &random, depth: depth, isSwitch: isSwitch)
        if isSwitch && random.oneIn(2) || text.hostile(&random) {
            let active = text.hostile(&random) || children.isEmpty ? AppSpecValues.strayActive(&random) : random.element(children)
            text.line("active = \(active),")
        }
        return id
    }

    /// Writes a node's children; returns their ids as Lua text.
    private func children(_ text: inout AppText, _ random: inout SeededRandom, depth: Int, isSwitch: Bool) -> [String] {
        if text.hostile(&random) {
            text.line(random.element([#"children = "x","#, "children = { 1, 2 },", "children = {},", ""]))
            return []
        }
        // A switch needs a child; others have some while the script is small and shallow.
        guard isSwitch || depth < 5 && text.nodes < 40 && (random.int(in: 0...depth + 1) == 0 || random.oneIn(3)) else {
            return []
        }
        text.line("children = {")
        var ids: [String] = []
        for index in 0..<random.int(in: 1...4) where index == 0 && isSwitch || text.nodes < 40 && depth < 5 {
            text.nodes += 1
            text.line("{")
            ids.append(node(&text, &random, depth: depth + 1))
            text.line("},")
        }
        text.line("},")
        return ids
    }

    private func rootOptions(_ text: inout AppText, _ random: inout SeededRandom) {
        let options = [
            ("rollback", ["true", "false"], [#""no""#]),
            ("max_redirects", ["0", "1", "8", "1000"], ["-1", "1001", "1.5", #""8""#]),
            ("animate", [#""last""#, #""each""#], [#""all""#]),
            ("history", ["0", "100", "10000"], ["-5", "20000"]),
            ("queue", [#""fifo""#, #""latest_wins""#], [#""lifo""#]),
            ("case_insensitive_routes", ["true", "false"], [#""x""#]),
        ]
        for (name, good, bad) in options where random.oneIn(5) {
            text.line("\(name) = \(random.element(text.hostile(&random) ? bad : good)),")
        }
    }

    private func anywhere(_ text: inout AppText, _ random: inout SeededRandom) {
        if text.hostile(&random) {
            return text.line(random.element([#"anywhere = "x","#, "anywhere = { 1 },"]))
        }
        guard random.oneIn(3) else { return }
        text.line("anywhere = {")
        for _ in 0..<random.int(in: 1...3) {
            text.line("{")
            node(&text, &random, depth: 3)
            text.line("},")
        }
        text.line("},")
    }

    /// Lines after the app: interceptors, observers, redirect rules (some malformed).
    private func extras(_ text: inout AppText, _ random: inout SeededRandom) {
        if random.oneIn(6) {
            text.line(#"portolan.intercept(function(request) if request:goes_to("n3") then return false end end)"#)
        }
        if random.oneIn(8) { text.line(#"portolan.on("did_route", function() end)"#) }
        if random.oneIn(8) {
            if text.hostilePattern(&random) {
                text.line("portolan.redirect_rule(\(AppSpecValues.pattern(&text, &random)), \(AppSpecValues.pattern(&text, &random)))")
            } else {
                text.line(#"portolan.redirect_rule("/old\#(random.int(in: 0...9))/:id", "/new/:id")"#)
            }
        }
    }
}

/// Lua text being written, a line at a time, and how hostile its choices are.
struct AppText {
    var lines: [String] = []
    /// Node tables written so far beside the root, to keep an app small.
    var nodes = 0
    /// One field in `hostility` is hostile, one id in `idHostility`, one URL pattern in
    /// `patternHostility`; none when 0.
    let hostility: Int, idHostility: Int, patternHostility: Int
    /// The next fresh id's number (ids of a script without hostile choices are unique).
    var nextID = 0

    init(hostility: Int, idHostility: Int, patternHostility: Int) {
        (self.hostility, self.idHostility, self.patternHostility) = (hostility, idHostility, patternHostility)
    }

    mutating func line(_ text: String) {
        if !text.isEmpty { lines.append(text) }
    }

    /// Whether the next choice is a hostile one.
    func hostile(_ random: inout SeededRandom) -> Bool {
        hostility > 0 && random.oneIn(hostility)
    }

    func hostileID(_ random: inout SeededRandom) -> Bool {
        idHostility > 0 && random.oneIn(idHostility)
    }

    func hostilePattern(_ random: inout SeededRandom) -> Bool {
        patternHostility > 0 && random.oneIn(patternHostility)
    }
}
