import Portolan
import PortolanLua
import PortolanShipping

/// The text form of a coverage report, as `portolan test --coverage` prints it after the test
/// report:
///
/// ```
/// coverage of Examples/movies/app.lua (27 scenarios):
///   nodes 14/16 (87%)
///   edges 13/15 (86%)
///   switch targets 4/6 (66%)
///   URL patterns 7/9 (77%)
/// never exercised:
///   nodes (2): about, watched_movie
///   edges (2): settings -> about, watched -> watched_movie
///   switch targets (2): root -> onboarding, dashboard -> watched
///   URL patterns (2): /about (about), /watched/:id<int> (watched_movie)
/// anywhere entries (the node below -> the anywhere node, in how many scenarios):
///   wishlist -> settings (3)
/// ```
///
/// Percentages are rounded down, so 100% means everything; lists are in declaration order.
public enum CoverageReport {
    public static func text(_ coverage: Coverage, app: String? = nil, htmlFile: String? = nil) -> String {
        var lines: [String] = []
        let scenarios = coverage.scenarios == 1 ? "1 scenario" : "\(coverage.scenarios) scenarios"
        lines.append("coverage" + (app.map { " of " + $0 } ?? "") + " (\(scenarios)):")
        for count in coverage.summary {
            lines.append("  " + count.description)
        }
        let never: [(String, [String])] = [
            ("nodes", coverage.uncoveredNodes),
            ("edges", coverage.uncoveredEdges.map(\.description)),
            ("switch targets", coverage.uncoveredSwitchTargets.map(\.description)),
            ("URL patterns", coverage.uncoveredPatterns.map(\.description)),
        ].filter { !$0.1.isEmpty }
        if never.isEmpty {
            lines.append("never exercised: nothing")
        } else {
            lines.append("never exercised:")
            for (category, items) in never {
                lines.append("  \(category) (\(items.count)): " + items.joined(separator: ", "))
            }
        }
        let anywhere = coverage.anywhereEntries
        if !anywhere.isEmpty {
            lines.append("anywhere entries (the node below -> the anywhere node, in how many scenarios):")
            for entry in anywhere {
                lines.append("  \(entry) (\(coverage.anywhereScenarios[entry] ?? 0))")
            }
        }
        if coverage.scenariosWithReplacedRouter > 0 {
            lines.append("note: \(coverage.scenariosWithReplacedRouter) of the scenarios declared an app again (a reload?); what they did after that is not counted")
        }
        if let htmlFile {
            lines.append("HTML report: " + htmlFile)
        }
        // Ids and patterns are the app's: one line each stays one line, and gives a CI runner no command.
        return CILogText.safe(lines.map { Escaping.visibleControls($0) }.joined(separator: "\n"))
    }
}
