import Portolan
import PortolanLua

/// Comparisons of route patterns by shape, segment by segment, for the route lints. They answer
/// only what the shapes prove: when unsure, "no" for `alwaysBeats` and `contains` (no false
/// warning) and "yes" for `mayOverlap` (no false error).
///
/// A pattern stands for one or more paths (its optional parts spelled out); each comparison is
/// made path by path. A path whose part of several segments is not last, or a route with options
/// of its own, is beyond what the shapes follow here, and gets the unsure answer.
enum RouteShapes {
    /// Whether `winner` matches every URL `loser` matches and is always preferred by the matcher:
    /// the two have the same segments up to one where `winner` has `:name` and `loser` has `*`
    /// (a parameter is tried before `*`, and both accept any segment), and from there `winner`'s
    /// segments accept whatever `loser`'s do.
    static func alwaysBeats(_ winner: RoutePattern, _ loser: RoutePattern, caseInsensitive: Bool) -> Bool {
        guard winner.scheme == loser.scheme, winner.host == loser.host, winner.options == .app, loser.options == .app,
            let mine = onlyPath(winner), let theirs = onlyPath(loser), mine.count == theirs.count
        else { return false }
        var decided = false
        for (mine, theirs) in zip(mine, theirs) {
            if decided {
                guard accepts(mine, allOf: theirs, caseInsensitive: caseInsensitive) else { return false }
            } else if !same(mine, theirs, caseInsensitive: caseInsensitive) {
                guard case .parameter = mine, case .anySegment = theirs else { return false }
                decided = true
            }
        }
        return decided
    }

    /// Whether `rule` (a redirect rule's pattern, matched case-sensitively) matches every URL
    /// `route` matches, so that no URL ever reaches `route`: each of the route's paths is within
    /// one of the rule's.
    static func contains(_ rule: RoutePattern, _ route: RoutePattern, caseInsensitiveTarget: Bool) -> Bool {
        // A rule naming no host matches the routing segments of URLs that have one (with the host
        // in front), which a shape comparison does not follow: only like with like.
        guard rule.scheme == route.scheme, rule.host == route.host, route.options == .app else { return false }
        return route.alternatives.allSatisfy { routePath in
            rule.alternatives.contains { rulePath in
                contains(rulePath.segments, routePath.segments, caseInsensitiveTarget: caseInsensitiveTarget)
            }
        }
    }

    private static func contains(_ rule: [PathSegmentPattern], _ route: [PathSegmentPattern], caseInsensitiveTarget: Bool) -> Bool {
        guard restIsLastOrAbsent(rule), restIsLastOrAbsent(route) else { return false }
        let ruleRest = rule.last.map(isRest) ?? false
        let routeRest = route.last.map(isRest) ?? false
        if ruleRest {
            let fixed = rule.count - 1
            guard route.count - (routeRest ? 1 : 0) >= fixed else { return false }
            if case .rest(_, true) = rule.last, route.count - (routeRest ? 1 : 0) == fixed { return false }
            return zip(rule.prefix(fixed), route.prefix(fixed)).allSatisfy {
                accepts($0, allOf: $1, caseInsensitive: false, targetCaseInsensitive: caseInsensitiveTarget)
            }
        }
        guard !routeRest, rule.count == route.count else { return false }
        return zip(rule, route).allSatisfy {
            accepts($0, allOf: $1, caseInsensitive: false, targetCaseInsensitive: caseInsensitiveTarget)
        }
    }

    /// Whether some URL could match both; `true` when the shapes cannot tell.
    static func mayOverlap(_ a: RoutePattern, _ b: RoutePattern, caseInsensitive: Bool) -> Bool {
        if (a.scheme != nil || b.scheme != nil) && (a.scheme != b.scheme || a.host != b.host) { return true }
        let folds = caseInsensitive || a.options.caseInsensitive == true || b.options.caseInsensitive == true
        return a.alternatives.contains { x in
            b.alternatives.contains { y in overlapSegments(x.segments, y.segments, folds) }
        }
    }

    private static func overlapSegments(_ a: [PathSegmentPattern], _ b: [PathSegmentPattern], _ caseInsensitive: Bool) -> Bool {
        guard restIsLastOrAbsent(a), restIsLastOrAbsent(b) else { return true }
        let aRest = a.last.map(isRest) ?? false, bRest = b.last.map(isRest) ?? false
        let aFixed = a.count - (aRest ? 1 : 0), bFixed = b.count - (bRest ? 1 : 0)
        if aFixed != bFixed {
            // The shorter one must end with `**` to take the longer one's extra segments.
            guard (aFixed < bFixed && aRest) || (bFixed < aFixed && bRest) else { return false }
        }
        for (x, y) in zip(a.prefix(aFixed), b.prefix(bFixed)) {
            switch (x, y) {
            case (.constant(let c), .constant(let d)):
                guard caseInsensitive ? c.lowercased() == d.lowercased() : c == d else { return false }
            case (.constant(let c), .typed), (.constant(let c), .validated):
                if checkedAccepts(y, c) == false { return false }
            case (.typed, .constant(let c)), (.validated, .constant(let c)):
                if checkedAccepts(x, c) == false { return false }
            default:
                continue
            }
        }
        return true
    }

    /// The segments of a pattern that stands for one path, whose part of several segments (if
    /// any) is last.
    private static func onlyPath(_ pattern: RoutePattern) -> [PathSegmentPattern]? {
        guard pattern.alternatives.count == 1, restIsLastOrAbsent(pattern.segments) else { return nil }
        return pattern.segments
    }

    private static func restIsLastOrAbsent(_ segments: [PathSegmentPattern]) -> Bool {
        guard let index = segments.firstIndex(where: isRest) else { return true }
        return index == segments.count - 1
    }

    // MARK: Segments

    private static func isRest(_ segment: PathSegmentPattern) -> Bool {
        if case .rest = segment { return true }
        return false
    }

    /// The same segment, parameter names aside.
    private static func same(_ a: PathSegmentPattern, _ b: PathSegmentPattern, caseInsensitive: Bool) -> Bool {
        switch (a, b) {
        case (.constant(let x), .constant(let y)): return caseInsensitive ? x.lowercased() == y.lowercased() : x == y
        case (.typed(_, let x), .typed(_, let y)): return x == y
        case (.validated(_, let x), .validated(_, let y)): return x == y
        case (.composite(let x), .composite(let y)): return x == y
        case (.rest(_, let x), .rest(_, let y)): return x == y
        case (.parameter, .parameter), (.anySegment, .anySegment): return true
        default: return false
        }
    }

    /// Whether segment `a` accepts every segment `b` accepts.
    private static func accepts(
        _ a: PathSegmentPattern, allOf b: PathSegmentPattern, caseInsensitive: Bool, targetCaseInsensitive: Bool = false
    ) -> Bool {
        switch (a, b) {
        case (.rest(_, let aNeedsOne), .rest(_, let bNeedsOne)):
            return !aNeedsOne || bNeedsOne
        case (.rest, _), (_, .rest):
            return false
        case (.parameter, _), (.anySegment, _):
            return true
        case (.constant(let x), .constant(let y)):
            // A case-insensitive route also matches `Y` and `y`, which a case-sensitive rule may not.
            if targetCaseInsensitive, y.lowercased() != y.uppercased() { return false }
            return caseInsensitive ? x.lowercased() == y.lowercased() : x == y
        case (.typed, .constant(let y)), (.validated, .constant(let y)):
            return checkedAccepts(a, y) ?? false
        default:
            return same(a, b, caseInsensitive: caseInsensitive)
        }
    }

    /// Whether a typed or validated segment accepts the constant `text`, asked of a real matcher;
    /// nil when `text` has characters this does not encode.
    private static func checkedAccepts(_ segment: PathSegmentPattern, _ text: String) -> Bool? {
        let isPlain = !text.isEmpty && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
        }
        guard isPlain else { return nil }
        var builder = URLMatcherBuilder<Bool>()
        guard (try? builder.insert("/" + segment.description, value: true)) != nil else { return nil }
        return ((try? builder.build().match("/" + text)) ?? nil) != nil
    }
}
