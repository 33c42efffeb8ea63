/// Why a test's helper gave up (a tool that did not run, a screen that never showed what was
/// awaited), thrown so the test fails saying so.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
