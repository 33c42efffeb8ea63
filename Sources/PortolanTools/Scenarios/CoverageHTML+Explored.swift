import Portolan

/// The coverage page's section on exploration (`portolan explore --coverage-html`): each
/// category as the scenarios and as the explorer reached it, and what the explorer reached that
/// no scenario did (a path worth a scenario of its own).
extension CoverageHTML {
    static func exploredSection(_ explored: Coverage, next scenarios: Coverage) -> String {
        var html = "<h2>Scenarios and exploration</h2>\n<table id=\"explored\">\n"
            + "<thead><tr><th>category</th><th>scenarios</th><th>exploration</th><th>total</th></tr></thead>\n<tbody>\n"
        for (scenario, exploration) in zip(scenarios.summary, explored.summary) {
            html += "<tr data-category=\"\(Escaping.xml(scenario.category))\"><th scope=\"row\">\(Escaping.xml(scenario.category))</th>"
                + "<td class=\"scenario-count\">\(scenario.covered) (\(scenario.percentText))</td>"
                + "<td class=\"explored-count\">\(exploration.covered) (\(exploration.percentText))</td>"
                + "<td class=\"total\">\(scenario.total)</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        let scenarioNodes = Set(scenarios.coveredNodes)
        let onlyExplored = explored.coveredNodes.filter { !scenarioNodes.contains($0) }
        let scenarioEdges = Set(scenarios.coveredEdges)
        let onlyExploredEdges = explored.coveredEdges.filter { !scenarioEdges.contains($0) }
        if onlyExplored.isEmpty && onlyExploredEdges.isEmpty {
            html += "<p id=\"only-explored\" class=\"meta\">The exploration reached nothing the scenarios did not.</p>\n"
        } else {
            html += "<p class=\"meta\">Reached by exploration, never by a scenario:</p>\n<ul id=\"only-explored\">\n"
            for id in onlyExplored { html += "<li class=\"node\"><code>\(Escaping.xml(id))</code></li>\n" }
            for edge in onlyExploredEdges { html += "<li class=\"edge\"><code>\(Escaping.xml(edge.description))</code></li>\n" }
            html += "</ul>\n"
        }
        return html
    }
}
