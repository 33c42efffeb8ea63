import PortolanLua

// Lints of the root's `version` and `migrations` (docs/snapshots.md): a rename to a node the rules
// do not have, a removed node the rules still have, a move under nodes they do not have, a
// migration past the declared version, and a gap in the versions.

extension AppLinter {
    mutating func checkMigrations() {
        guard !app.options.migrations.isEmpty else { return }
        let at = visited.first.map { line(of: $0, field: "migrations") } ?? app.appLine
        let ids = Set(visited.compactMap(\.node.id))
        let version = app.options.version
        let steps = app.options.migrations.values.sorted { $0.version < $1.version }
        for (index, step) in steps.enumerated() {
            let later = steps[(index + 1)...]
            let label = "migrations[\(step.version)]"
            if step.version > version {
                report(.error, .invalidMigration, line: at,
                       "\(label) is for a version after the rules' own (version = \(version)): declare version = \(step.version) or remove it")
            }
            if step.version < 2 {
                report(.error, .invalidMigration, line: at, "\(label): version 1 is the first; a migration leads to version 2 or later")
            }
            for (old, new) in step.renamed {
                let final = Self.finalName(new, after: later)
                if let final, !ids.contains(final) {
                    report(.error, .invalidMigration, line: at,
                           "\(label) renames '\(old)' to '\(new)', which the rules do not have" + (final == new ? "" : " (renamed on to '\(final)')"))
                }
            }
            for id in step.removed where ids.contains(id) && !later.contains(where: { $0.renamed.contains { $0.new == id } }) {
                report(.error, .invalidMigration, line: at,
                       "\(label) removes '\(id)', which the rules still have: a saved '\(id)' would be dropped though it exists")
            }
            for (id, lineage) in step.moved {
                for ancestor in lineage where !ids.contains(ancestor) {
                    report(.error, .invalidMigration, line: at,
                           "\(label) moves '\(id)' under '\(ancestor)', which the rules do not have")
                }
            }
        }
        let declared = Set(steps.map(\.version))
        if let first = steps.first?.version, first >= 2 {
            let gaps = (first...version).filter { !declared.contains($0) }
            if !gaps.isEmpty {
                report(.warning, .invalidMigration, line: at,
                       "no migration for version\(gaps.count == 1 ? "" : "s") \(gaps.map(String.init).joined(separator: ", ")) between \(first) and \(version): write migrations[N] = {} for a version that changed no node")
            }
        }
    }

    /// The name `id` has after the later migrations' renames; nil when a later one removes it.
    private static func finalName(_ id: String, after later: ArraySlice<DeclaredMigration>) -> String? {
        var name = id
        for step in later {
            if step.removed.contains(name) { return nil }
            if let rename = step.renamed.first(where: { $0.old == name }) { name = rename.new }
        }
        return name
    }
}
