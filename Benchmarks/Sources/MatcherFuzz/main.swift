import Portolan
import TestSupport

// Long fuzz run of the URL layer (issue 4: "at least a million inputs"), a seeded property harness:
//
//     swift run -c release --package-path Benchmarks MatcherFuzz [--count N] [--seed S]
//
// Every input is a hostile URL (TestSupport's HostileURL, the URL fuzz tests' recipe: random bytes; mixes of / % ? # & = with valid and invalid escapes;
// schemes; control characters; inputs around the length and segment caps); every tenth also a
// hostile pattern. Each must parse and match, or fail with a typed URLRoutingError carrying a
// message; a match must be well formed, and `match(String)` must give what parsing, then
// `match(ParsedURL)`, gives. A crash or a broken invariant stops the run and prints the
// input's index and text, which `--seed` and `--count` reproduce.
// A coverage-guided variant (libFuzzer, `swiftc -sanitize=fuzzer`) is in libfuzzer/run.sh.

func argument(_ name: String) -> UInt64? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return UInt64(arguments[index + 1])
}

let count = Int(argument("--count") ?? 1_000_000)
var random = SeededRandom(seed: argument("--seed") ?? 0x5EED_0004)
// The tests' patterns of every form (HostileURL), and constants alone, which match(String) finds by
// a hash of the whole path.
let registered = HostileURL.patterns + ["/a/b/c", "/A/c", "/a%2Fb", "/%3F", "/a/1", "/..", "/a b"]
var builder = URLMatcherBuilder<Int>()
for (index, pattern) in registered.enumerated() { try builder.insert(pattern, value: index) }
let matcher = builder.build()
var patternMatcher = URLMatcherBuilder<Int>()

var matched = 0, unmatched = 0, refused = 0, patternsParsed = 0, patternsRefused = 0
func fail(_ index: Int, _ input: String, _ why: String) -> Never {
    print("FAILED at input \(index): \(why)\n  input: \(input.debugDescription)")
    exit(1)
}

let clock = ContinuousClock()
let start = clock.now
for index in 0..<count {
    let url = HostileURL.make(&random)
    // The string entry (which finds constant paths by their hash) must agree with the parsed one.
    let direct: Result<URLMatch<Int>?, URLRoutingError>
    do throws(URLRoutingError) { direct = .success(try matcher.match(url)) } catch { direct = .failure(error) }
    do {
        let parsed = try ParsedURL(parsing: url)
        if direct != .success(matcher.match(parsed)) { fail(index, url, "match(String) gave \(direct)") }
        if parsed.routingSegments.contains(where: \.isEmpty) { fail(index, url, "an empty segment") }
        if parsed.pathSegments.count > URLLimits.maximumSegments { fail(index, url, "past the segment cap") }
        if let match = matcher.match(parsed) {
            matched += 1
            // A pattern with optional parts captures the names of the path that matched.
            let named = Set(match.pattern.parameterNames), captured = Set(match.parameters.keys)
            let exact = match.pattern.alternatives.count == 1 ? captured == named : captured.isSubset(of: named)
            if !exact { fail(index, url, "parameters \(match.parameters)") }
            if match.query != parsed.query || match.fragment != parsed.fragment { fail(index, url, "query or fragment lost") }
        } else {
            unmatched += 1
        }
    } catch {
        refused += 1
        if error.description.isEmpty { fail(index, url, "an error without a message") }
        if direct != .failure(error) { fail(index, url, "match(String) gave \(direct), parsing threw \(error)") }
    }
    if index % 10 == 0 {
        let text = HostileURL.pattern(&random)
        do {
            let pattern = try RoutePattern(text)
            patternsParsed += 1
            do {
                try patternMatcher.insert(pattern, value: index)
            } catch {
                guard HostileURL.isExpectedRefusal(error) else { fail(index, text, "insert failed with \(error)") }
            }
        } catch {
            patternsRefused += 1
            if error.description.isEmpty { fail(index, text, "a pattern error without a message") }
        }
    }
}
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
print("\(count) URLs in \((seconds * 100).rounded() / 100) s: \(matched) matched, \(unmatched) unmatched, \(refused) refused (typed)")
print("\(patternsParsed + patternsRefused) patterns: \(patternsParsed) parsed, \(patternsRefused) refused (typed); \(patternMatcher.patterns.count) registered")
print("no crash, no broken invariant")

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
