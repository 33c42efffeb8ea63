import Portolan
import PortolanLua

/// The HTML form of a coverage report: one self-contained page (no external file, font or
/// script) with the summary table, the declared graph drawn inline as SVG with every node and
/// edge classed `covered` or `uncovered` (switch targets switched to also `switched`), the lists
/// of what was never exercised, and tables of URL patterns, switch targets and anywhere entries.
///
/// A small script counts the covered and uncovered nodes and edges of the drawing as the browser
/// parsed it and writes them into `#browser-check`, so a test that reads the DOM a browser dumped
/// knows the page was rendered and its script ran. The page reads the same without it.
public enum CoverageHTML {
    /// `explored`, when given, is what `portolan explore` reached: shown next to the scenarios'.
    public static func render(_ coverage: Coverage, app: String? = nil, explored: Coverage? = nil) -> String {
        [
            head(app: app),
            summary(coverage, app: app),
            explored.map { exploredSection($0, next: coverage) } ?? "",
            graph(coverage, app: app),
            neverExercised(coverage),
            patterns(coverage),
            switchTargets(coverage),
            anywhereEntries(coverage),
            "<script>\n\(script)\n</script>\n</body>\n</html>\n",
        ].joined()
    }

    // MARK: Sections of the page, in order

    private static func head(app: String?) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="portolan test --coverage">
        <title>\(Escaping.xml(app.map { "Coverage of " + $0 } ?? "Portolan coverage"))</title>
        <style>
        \(pageStylesheet)
        </style>
        </head>
        <body>
        <h1>Navigation coverage</h1>

        """
    }

    /// What was run, and the table of covered counts per category.
    private static func summary(_ coverage: Coverage, app: String?) -> String {
        let scenarios = coverage.scenarios == 1 ? "1 scenario" : "\(coverage.scenarios) scenarios"
        var html = "<p class=\"meta\">" + (app.map { "App <code>\(Escaping.xml($0))</code>, " } ?? "")
            + "<span id=\"scenario-count\">\(scenarios)</span>.</p>\n"
        if coverage.scenariosWithReplacedRouter > 0 {
            html += "<p class=\"note\">\(coverage.scenariosWithReplacedRouter) of the scenarios declared an app again (a reload?); what they did after that is not counted.</p>\n"
        }

        html += "<table id=\"summary\">\n<thead><tr><th>category</th><th>covered</th><th>total</th><th>%</th><th></th></tr></thead>\n<tbody>\n"
        for count in coverage.summary {
            // Nothing to cover is neither good nor bad: an empty grey bar.
            let percent = count.percent ?? 0
            let level = count.percent == nil ? "none" : percent >= 80 ? "good" : percent >= 50 ? "fair" : "poor"
            html += "<tr data-category=\"\(Escaping.xml(count.category))\"><th scope=\"row\">\(Escaping.xml(count.category))</th>"
                + "<td class=\"covered-count\">\(count.covered)</td><td class=\"total\">\(count.total)</td>"
                + "<td class=\"percent\">\(count.percentText)</td>"
                + "<td><div class=\"bar \(level)\"><div class=\"fill \(level)\" style=\"width: \(percent)%\"></div></div></td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        html += "<p id=\"browser-check\" class=\"meta\">(counted by the page's script when a browser shows it)</p>\n"
        return html
    }

    /// The declared graph, drawn inline with every node and edge classed by coverage.
    private static func graph(_ coverage: Coverage, app: String?) -> String {
        let nodes = Set(coverage.coveredNodes)
        let edges = Set(coverage.coveredEdges)
        let switched = Set(coverage.coveredSwitchTargets)
        let style = GraphStyle(
            nodeClasses: { nodes.contains($0) ? ["covered"] : ["uncovered"] },
            edgeClasses: { edge in
                (edges.contains(edge) ? ["covered"] : ["uncovered"]) + (switched.contains(edge) ? ["switched"] : [])
            },
            stylesheet: graphStylesheet,
            legend: [
                GraphLegendItem(className: "covered", label: "exercised by some scenario"),
                GraphLegendItem(className: "uncovered", label: "never exercised"),
            ],
            title: app.map { "Coverage of " + $0 }
        ).showingRoutes(of: coverage.graph)
        let svg = GraphRenderer.inlineSVG(GraphRenderer.render(coverage.graph, as: .svg, style: style))
        return "<h2>The graph</h2>\n"
            + "<p class=\"meta\">Green: exercised; red: never. A thick edge was switched to. Nodes reachable from anywhere are in the dashed frame; where they were entered is listed below.</p>\n"
            + "<div id=\"graph\">\n" + svg + "</div>\n"
    }

    private static func neverExercised(_ coverage: Coverage) -> String {
        var html = "<h2>Never exercised</h2>\n<div id=\"never\">\n"
        let never: [(String, String, [String])] = [
            ("nodes", "nodes", coverage.uncoveredNodes),
            ("edges", "edges", coverage.uncoveredEdges.map(\.description)),
            ("switch-targets", "switch targets", coverage.uncoveredSwitchTargets.map(\.description)),
            ("patterns", "URL patterns", coverage.uncoveredPatterns.map(\.description)),
        ]
        if never.allSatisfy({ $0.2.isEmpty }) {
            html += "<p>Nothing: every node, edge, switch target and URL pattern was exercised.</p>\n"
        }
        for (id, title, items) in never where !items.isEmpty {
            html += "<h3>\(Escaping.xml(title)) (\(items.count))</h3>\n<ul class=\"never\" id=\"never-\(id)\">\n"
            for item in items { html += "<li><code>\(Escaping.xml(item))</code></li>\n" }
            html += "</ul>\n"
        }
        return html + "</div>\n"
    }

    private static func patterns(_ coverage: Coverage) -> String {
        let heading = "<h2>URL patterns</h2>\n"
        guard !coverage.allPatterns.isEmpty else { return heading + "<p>The app declares no URL pattern.</p>\n" }
        return heading + table(id: "patterns", headers: ["pattern", "node", "URLs routed", "scenarios"], rows: coverage.allPatterns.map { pattern in
            let hits = coverage.patternHits[pattern] ?? 0
            return (hits > 0, [code(pattern.pattern), code(pattern.node), "\(hits)", "\(coverage.patternScenarios[pattern] ?? 0)"])
        })
    }

    private static func switchTargets(_ coverage: Coverage) -> String {
        let heading = "<h2>Switch targets</h2>\n"
        guard !coverage.allSwitchTargets.isEmpty else { return heading + "<p>The app declares no switch node.</p>\n" }
        return heading + "<p class=\"meta\">A switch node's initial child counts once something switches to it.</p>\n"
            + table(id: "switch-targets", headers: ["switch node", "child", "scenarios"], rows: coverage.allSwitchTargets.map { target in
                let count = coverage.switchScenarios[target] ?? 0
                return (count > 0, [code(target.from), code(target.to), "\(count)"])
            })
    }

    private static func anywhereEntries(_ coverage: Coverage) -> String {
        let heading = "<h2>Anywhere entries</h2>\n"
        let anywhere = coverage.anywhereEntries
        guard !anywhere.isEmpty else {
            return heading + "<p>" + (coverage.graph.anywhereIDs.isEmpty
                ? "The app declares no node reachable from anywhere."
                : "No node reachable from anywhere was entered.") + "</p>\n"
        }
        return heading + table(id: "anywhere", headers: ["entered on top of", "anywhere node", "scenarios"], rows: anywhere.map { entry in
            (nil, [code(entry.from), code(entry.to), "\(coverage.anywhereScenarios[entry] ?? 0)"])
        })
    }

    // MARK: Style, script and helpers

    static let graphStylesheet = """
    .portolan-graph .node.covered rect { fill: #d3f9d8; stroke: #2b8a3e; }
    .portolan-graph .node.uncovered rect { fill: #ffe3e3; stroke: #c92a2a; }
    .portolan-graph .edge.covered { stroke: #2b8a3e; stroke-width: 2; }
    .portolan-graph .edge.uncovered { stroke: #e03131; stroke-dasharray: 4 3; opacity: 0.75; }
    .portolan-graph .edge.switched { stroke-width: 3.5; }
    """

    static let pageStylesheet = """
    body { font-family: Helvetica, Arial, sans-serif; margin: 24px; color: #212529; }
    h1 { font-size: 22px; margin: 0 0 4px; }
    h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #dee2e6; padding-bottom: 4px; }
    h3 { font-size: 14px; margin: 14px 0 4px; }
    .meta { color: #495057; font-size: 13px; }
    .note { color: #e8590c; }
    table { border-collapse: collapse; font-size: 13px; }
    th, td { text-align: left; padding: 4px 12px 4px 0; border-bottom: 1px solid #f1f3f5; }
    #summary td.covered-count, #summary td.total, #summary td.percent { text-align: right; }
    .bar { width: 160px; height: 10px; background: #ffe3e3; border-radius: 5px; overflow: hidden; }
    .fill { height: 100%; }
    .fill.good { background: #2f9e44; }
    .fill.fair { background: #f59f00; }
    .fill.poor { background: #e03131; }
    .bar.none { background: #e9ecef; }
    tr.covered td:first-child { border-left: 4px solid #2f9e44; padding-left: 6px; }
    tr.uncovered td:first-child { border-left: 4px solid #e03131; padding-left: 6px; }
    #graph { border: 1px solid #dee2e6; padding: 8px; }
    #graph svg { display: block; width: 100%; height: auto; }
    ul.never { margin: 0; columns: 3; font-size: 13px; }
    code { overflow-wrap: anywhere; }
    """

    /// Counts what the browser parsed, so a headless test can tell the page ran.
    static let script = """
    (function () {
      var graph = document.querySelector('#graph svg');
      var check = document.getElementById('browser-check');
      if (!graph || !check) { return; }
      function count(selector) { return graph.querySelectorAll(selector).length; }
      check.textContent = 'In this drawing: ' + count('.nodes [data-id].covered') + ' covered and '
        + count('.nodes [data-id].uncovered') + ' uncovered nodes, ' + count('.edges .edge.covered')
        + ' covered and ' + count('.edges .edge.uncovered') + ' uncovered edges.';
      check.setAttribute('data-checked', 'yes');
    })();
    """

    /// A table with a header row; a row marked covered or not gets that class (anywhere entries,
    /// which are listed rather than scored, get none). Cells are HTML already.
    private static func table(id: String, headers: [String], rows: [(covered: Bool?, cells: [String])]) -> String {
        var html = "<table id=\"\(id)\">\n<thead><tr>" + headers.map { "<th>\($0)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for row in rows {
            let opening = row.covered.map { "<tr class=\"\($0 ? "covered" : "uncovered")\">" } ?? "<tr>"
            html += opening + row.cells.map { "<td>\($0)</td>" }.joined() + "</tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    /// An id or a pattern, escaped, in code type.
    private static func code(_ text: String) -> String {
        "<code>\(Escaping.xml(text))</code>"
    }
}
