import Logging
import Portolan
import RoutingKit

// URL matcher benchmark (issue 4): Portolan's URLMatcher against RoutingKit's TrieRouter, with the
// same 10, 1,000 and 10,000 patterns and the same URLs. Build and run in release:
//
//     swift run -c release --package-path Benchmarks MatcherBenchmark
//
// Both start from the URL string. Portolan parses it (scheme, percent-decoding, query, fragment,
// validation) and returns typed parameters; RoutingKit is given what Vapor gives it, the path
// split on "/" (no decoding), plus a Parameters bag with a logger made once (its default init
// makes a Logger per call, which would dwarf the lookup). `--quick` runs short batches;
// `--only ROW` runs the rows whose name contains ROW (`constants`, `parameters`, `miss`, `form`), at every
// size, or only at `--size N`: with `--quick`, a run short enough for callgrind.

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let onlyRow = option("--only")
let onlySize = option("--size").flatMap { Int($0) }
let clock = ContinuousClock()

/// Lookups per second over `urls`, the median of several timed passes after a warm-up.
func lookupsPerSecond(_ urls: [String], _ lookup: (String) -> Int) -> Double {
    var checksum = 0
    let passes = quick ? 5 : 21
    let minimum: Duration = quick ? .milliseconds(5) : .milliseconds(40)
    var rounds = 1
    while true {
        let elapsed = clock.measure {
            for _ in 0..<rounds { for url in urls { checksum &+= lookup(url) } }
        }
        if elapsed >= minimum { break }
        rounds *= 2
    }
    var rates: [Double] = []
    for _ in 0..<passes {
        let elapsed = clock.measure {
            for _ in 0..<rounds { for url in urls { checksum &+= lookup(url) } }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        rates.append(Double(rounds * urls.count) / seconds)
    }
    blackHole(checksum)
    rates.sort()
    return rates[rates.count / 2]
}

nonisolated(unsafe) var sink = 0
@inline(never) func blackHole(_ value: Int) { sink &+= value }

enum Setup: Error { case wrongResult(String) }

func format(_ rate: Double) -> String {
    let millions = rate / 1_000_000
    let text = String(Int((millions * 100).rounded()))
    let padded = String(repeating: "0", count: max(0, 3 - text.count)) + text
    return "\(padded.dropLast(2)).\(padded.suffix(2)) M/s"
}

func pad(_ text: String, _ width: Int) -> String {
    width < 0
        ? text + String(repeating: " ", count: max(0, -width - text.count))
        : String(repeating: " ", count: max(0, width - text.count)) + text
}

/// Portolan's lookup: the route's value plus the number of parameters it captured.
func portolanLookup(_ matcher: URLMatcher<Int>) -> (String) -> Int {
    { url in
        guard let match = try? matcher.match(url) else { return -1 }
        return match.value &+ match.parameters.count
    }
}

/// RoutingKit's lookup, given the path split on "/" as Vapor gives it; `read` says what the app
/// makes of the route's value and parameters (by default, the value plus the parameters' count).
func routingKitLookup(
    _ router: TrieRouter<Int>, read: @escaping (Int, Parameters) -> Int = { $0 &+ $1.allNames.count }
) -> (String) -> Int {
    let logger = Logger(label: "benchmark")
    return { url in
        var parameters = Parameters(logger)
        let path = url.split(separator: "/").map(String.init)
        guard let value = router.route(path: path, parameters: &parameters) else { return -1 }
        return read(value, parameters)
    }
}

/// Times one row, after checking that both lookups agree on every URL; returns Portolan's rate and the ratio.
func timeRow(_ name: String, size: Int, _ urls: [String], _ portolan: (String) -> Int, _ routingKit: (String) -> Int) throws -> (Double, Double) {
    for url in urls where portolan(url) != routingKit(url) {
        throw Setup.wrongResult("\(url): Portolan \(portolan(url)), RoutingKit \(routingKit(url))")
    }
    let ours = lookupsPerSecond(urls, portolan)
    let theirs = lookupsPerSecond(urls, routingKit)
    let ratio = ours / theirs
    print([pad("\(size)", widths[0]), pad(name, widths[1]), pad(format(ours), widths[2]), pad(format(theirs), widths[3]),
           pad("\(Double(Int(ratio * 100)) / 100)×", widths[4])].joined(separator: "  "))
    return (ours, ratio)
}

let widths = [-9, -16, 13, 13, 8]
print([pad("patterns", widths[0]), pad("lookups", widths[1]), pad("Portolan", widths[2]), pad("RoutingKit", widths[3]),
       pad("ratio", widths[4])].joined(separator: "  "))
print(String(repeating: "-", count: 67))

var portolanAtTen: [String: Double] = [:]
var failures: [String] = []
for size in [10, 1_000, 10_000] where onlySize == nil || onlySize == size {
    let workload = Workload(patterns: size)
    var builder = URLMatcherBuilder<Int>()
    let router = TrieRouter(Int.self)
    for (index, pattern) in workload.patterns.enumerated() {
        try builder.insert(Workload.text(pattern), value: index)
        router.register(index, at: pattern.map { piece in
            switch piece {
            case .constant(let text): return PathComponent.constant(text)
            case .parameter(let name): return PathComponent.parameter(name)
            }
        })
    }
    let portolan = portolanLookup(builder.build())
    let routingKit = routingKitLookup(router)
    for (name, urls) in [("hit, constants", workload.staticHits), ("hit, parameters", workload.parameterHits),
                         ("miss", workload.misses)] where onlyRow.map(name.contains) ?? true {
        let (ours, ratio) = try timeRow(name, size: size, urls, portolan, routingKit)
        if size == 10 { portolanAtTen[name] = ours }
        if ratio < 1 { failures.append("\(size) \(name): Portolan slower than RoutingKit") }
        if let ten = portolanAtTen[name], ten / ours > 1.5 {
            failures.append("\(size) \(name): \(Double(Int(ten / ours * 100)) / 100)× slower than at 10 patterns")
        }
    }
}

// The pattern forms RoutingKit lacks, against the closest RoutingKit routes (FormWorkload): both
// return the route's value plus the number of parameters read, so they must agree on every URL.
for size in [10, 1_000, 10_000] where onlySize == nil || onlySize == size {
    let workload = FormWorkload(patterns: size)
    var builder = URLMatcherBuilder<Int>()
    let router = TrieRouter(Int.self)
    for (index, pattern) in workload.patterns.enumerated() {
        try builder.insert(FormWorkload.portolanPattern(pattern.form, section: pattern.section), value: index)
        for path in FormWorkload.routingKitPaths(pattern.form, section: pattern.section) {
            router.register(index, at: path.map { PathComponent(stringLiteral: $0) })
        }
    }
    let portolan = portolanLookup(builder.build())
    let routingKit = routingKitLookup(router) { value, parameters in
        switch FormWorkload.Form(rawValue: value % 4) {
        case .composite:
            guard let file = parameters.get("file"), let dot = file.lastIndex(of: "."), dot != file.startIndex else { return -1 }
            return value &+ [file[..<dot], file[file.index(after: dot)...]].count
        case .optional: return value &+ parameters.allNames.count
        case .repeatable: return parameters.getCatchall().isEmpty ? -1 : value &+ 1
        case .midPath:
            let rest = parameters.getCatchall()
            return rest.count >= 2 && rest.last == "edit" ? value &+ 1 : -1
        case nil: return -1
        }
    }
    for form in FormWorkload.Form.allCases where onlyRow.map(form.name.contains) ?? true {
        let (_, ratio) = try timeRow(form.name, size: size, workload.lookups[form] ?? [], portolan, routingKit)
        if ratio < 1 { failures.append("\(size) \(form.name): Portolan slower than RoutingKit") }
    }
}
print("")
print(failures.isEmpty ? "targets met: Portolan ≥ RoutingKit at every size; 10,000 within 1.5× of 10" : "targets missed:")
for failure in failures { print("  " + failure) }
