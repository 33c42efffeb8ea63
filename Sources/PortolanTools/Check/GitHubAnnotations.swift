import Portolan
import PortolanShipping

/// `portolan check --format github`: each finding as a GitHub Actions workflow command, which the
/// runner turns into an annotation on the pull request's line.
extension CheckFinding {
    /// `::error file=app.lua,line=12,title=duplicate-id::duplicate id 'movie' (first declared at line 8)`.
    /// No `line=` when the line is unknown. Findings carry no column, so there is no `col=`.
    public var githubCommand: String {
        // The command is the tool's own; what the app wrote inside it is escaped as GitHub reads it
        // (% CR LF, and : , in a property) and cannot hold a `##[` command (`CILogText`).
        var properties = ["file=" + CILogText.safeInsideLine(Escaping.githubProperty(file))]
        if line > 0 { properties.append("line=\(line)") }
        properties.append("title=" + Escaping.githubProperty("portolan check: " + code.rawValue))
        return "::\(severity.rawValue) \(properties.joined(separator: ","))::\(CILogText.safeInsideLine(Escaping.githubMessage(message)))"
    }
}

extension CheckReport {
    /// One workflow command per finding, then the summary as a plain log line.
    public var github: String {
        (findings.map(\.githubCommand) + [summary]).joined(separator: "\n")
    }
}
