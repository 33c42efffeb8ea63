// The lint of the root's `explore` option (docs/explore.md): a node id it names that the app does
// not declare, which `portolan explore` would silently never use.

extension AppLinter {
    mutating func checkExploreOption() {
        guard !app.options.explore.namedNodes.isEmpty else { return }
        let at = visited.first.map { line(of: $0, field: "explore") } ?? app.appLine
        let ids = Set(visited.compactMap(\.node.id))
        for (field, id) in app.options.explore.namedNodes where !ids.contains(id) {
            report(.warning, .unknownNodeInExplore, line: at, "explore.\(field) names '\(id)', which the app does not declare")
        }
    }
}
