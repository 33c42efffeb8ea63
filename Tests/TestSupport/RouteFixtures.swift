import Portolan

/// Instructions as their canonical text, which assertions compare.
public func texts(_ instructions: [Instruction]) -> [String] {
    instructions.map(\.description)
}

/// Suspends forever and ignores cancellation: what a broken handler does.
public func neverFinish() async {
    await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
}
