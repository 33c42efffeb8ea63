// libFuzzer entry for the URL layer: coverage-guided, with AddressSanitizer. Not part of the
// SwiftPM target (libFuzzer supplies `main`); run.sh compiles it with the URL sources.
//
// The input's first byte picks what is fuzzed: even → a URL (parse + match against a fixed set of
// patterns), odd → a pattern (parse + insert). Any crash, trap or sanitizer report is a bug; a
// typed URLRoutingError is the expected way to refuse input.

nonisolated(unsafe) let fuzzMatcher: URLMatcher<Int> = {
    var matcher = URLMatcherBuilder<Int>()
    let patterns = [
        "/", "/a", "/a/b", "/a/:x", "/a/:x<int>", "/a/:x<uuid>", "/a/:x{[a-z]+}/b", "/a/*/c", "/a/**rest",
        "/b/:p/:q", "/%2F/:x", "https://h.com/a/:id", "myapp://a/:id<int>", "/c/**", "/é/:x{[^/]+}",
        "/v/:code{([A-Z]|[0-9]){2,5}(-x)?}",
    ]
    for (index, pattern) in patterns.enumerated() { try! matcher.insert(pattern, value: index) }
    return matcher.build()
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let text = String(decoding: bytes, as: UTF8.self)
    if data[0] % 2 == 0 {
        do {
            if let match = try fuzzMatcher.match(text) {
                precondition(Set(match.parameters.keys) == Set(match.pattern.parameterNames))
            }
        } catch {
            precondition(!error.description.isEmpty)
        }
    } else {
        do {
            var matcher = URLMatcherBuilder<Int>()
            try matcher.insert(RoutePattern(text), value: 0)
            _ = try? matcher.build().match(text)
        } catch {
            precondition(!error.description.isEmpty)
        }
    }
    return 0
}
