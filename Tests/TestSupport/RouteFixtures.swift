import Portolan

/// Instructions as their canonical text, which assertions compare.
public func texts(_ instructions: [Instruction]) -> [String] {
    instructions.map(\.description)
}

extension Result where Success == [Instruction], Failure == RouteFailure {
    /// Whether the route went through, for assertions that need no more of it.
    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

/// Suspends forever and ignores cancellation: what a broken handler does.
public func neverFinish() async {
    await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
}
