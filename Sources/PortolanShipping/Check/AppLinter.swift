import Portolan
import PortolanLua

/// The lints themselves: everything `portolan check` can decide from what an app declared (the
/// recorded node tables and redirect rules) and from its source (literal redirects, `goes_to`
/// tests, guards and interceptors that always turn routes away). Each finding is reported; none
/// stops the others. This file walks the tree and reports; each kind of lint is an extension in a
/// file of its own (node tables, handlers, routes, redirect rules, redirects, turn-aways).
struct AppLinter {
    let app: RecordedApp
    let facts: SourceFacts
    let file: String
    private(set) var findings: [CheckFinding] = []

    /// The first node declared with each id.
    private(set) var firstByID: [String: Visited] = [:]
    private(set) var visited: [Visited] = []
    /// The app's redirect rules, once `checkRedirectRules` has accepted them; literal redirects go through them.
    var redirectRules = URLRedirects()

    /// A node table and where it stands in the declared tree.
    struct Visited {
        var node: RecordedNode
        /// How messages name it: `'movie'`, or `child 2 of 'tabs'` when it has no id.
        var label: String
        var parent: String?
        /// The anywhere node it is declared under (itself for an anywhere node).
        var anywhereAncestor: String?
        var line: Int
    }

    init(app: RecordedApp, facts: SourceFacts, file: String) {
        self.app = app
        self.facts = facts
        self.file = file
    }

    mutating func run() -> [CheckFinding] {
        collect(app.root, label: "the root", parent: nil, anywhere: nil)
        if let type = app.anywhereType {
            report(.error, .invalidNode, line: visited.first.map { line(of: $0, field: "anywhere") } ?? app.appLine, "anywhere must be a list of node tables, not a \(type)")
        }
        for (index, node) in app.anywhere.enumerated() {
            collect(node, label: "anywhere node \(index + 1)", parent: nil, anywhere: node.id ?? "")
        }
        for item in visited {
            checkStructure(item)
            checkHandlers(item)
        }
        checkOptions()
        checkDuplicates()
        checkActive()
        let routes = checkRoutes()
        checkRedirectRules(routes)
        checkRedirects(routes)
        checkGuardRedirectsIntoThemselves(routes)
        checkOrigins()
        checkGoesTo()
        checkTurnAways()
        checkDecisionEffects()
        checkMigrations()
        checkExploreOption()
        if let reason = app.declarationError, !findings.contains(where: { $0.severity == .error }) {
            // The engine refused something no lint above recognised: say so rather than pass. The
            // reason without the place the prelude's call gave it (`portolan check:18: `).
            let said = reason.replacing(#/^portolan check:[0-9]+: /#, with: "")
            report(.error, .loadError, line: app.appLine, "portolan.app refused the graph: \(said)")
        }
        return findings
    }

    // MARK: Walking the tree and reporting

    private mutating func collect(_ node: RecordedNode, label: String, parent: String?, anywhere: String?) {
        let name = node.id.flatMap { $0.isEmpty ? nil : "'\($0)'" } ?? label
        visited.append(Visited(node: node, label: name, parent: parent, anywhereAncestor: anywhere, line: line(of: node)))
        if let id = node.id, firstByID[id] == nil { firstByID[id] = visited.last }
        for (index, child) in (node.children ?? []).enumerated() {
            collect(child, label: "child \(index + 1) of \(name)", parent: node.id, anywhere: anywhere)
        }
    }

    func line(of node: RecordedNode) -> Int {
        node.line ?? app.appLine
    }

    /// The line of one field of a node's table when the source shows it, else the node's line.
    func line(of item: Visited, field: String) -> Int {
        item.node.line.flatMap { facts.fieldLines[$0]?[field] } ?? item.line
    }

    /// A finding in the app's file, or in `file` (a redirect rule may be declared in a module).
    mutating func report(
        _ severity: CheckFinding.Severity, _ code: CheckFinding.Code, file: String? = nil, line: Int, _ message: String
    ) {
        findings.append(CheckFinding(severity, code, file: file ?? self.file, line: line, message))
    }

    private var declaredIDs: [String] {
        visited.compactMap(\.node.id)
    }

    /// ` (did you mean 'movie'?)` for an id close to a declared one.
    func suggestion(for id: String) -> String {
        let close = declaredIDs.map { ($0, Self.editDistance($0, id)) }.filter { $0.1 <= 2 && $0.1 < max(2, id.count / 2 + 1) }
        guard let best = close.min(by: { $0.1 < $1.1 }) else { return "" }
        return " (did you mean '\(best.0)'?)"
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
