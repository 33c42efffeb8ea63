/// A trie edge that a segment follows when it passes a check: a type, a validator, or a segment of
/// text and parameters. The checks at one trie node are pairwise disjoint (``URLTrie`` refuses an
/// overlapping one), so at most one of them accepts a segment.
enum SegmentCheck: Sendable {
    case type(ParameterType)
    case validator(SegmentValidator)
    /// A composite, its text compared without ASCII case when `foldingCase`; `automaton` holds at
    /// least every segment it splits.
    case composite(CompositeSegment, foldingCase: Bool, automaton: SegmentValidator)

    /// The check of `segment` (at `index` of `alternative`), or `nil` for a segment that is not checked.
    init?(_ segment: PathSegmentPattern, validator: SegmentValidator?, foldingCase: Bool, pattern: String) throws(URLRoutingError) {
        switch segment {
        case .typed(_, let type):
            self = .type(type)
        case .validated:
            guard let validator else { return nil }
            self = .validator(validator)
        case .composite(let composite):
            do {
                self = .composite(composite, foldingCase: foldingCase, automaton: try composite.automaton(foldingCase: foldingCase))
            } catch {
                throw .segmentTooComplex(pattern: pattern, segment: composite.description, reason: error.reason)
            }
        case .constant, .parameter, .anySegment, .rest:
            return nil
        }
    }

    func accepts(_ segment: String) -> Bool {
        switch self {
        case .type(let type): return type.accepts(segment)
        case .validator(let validator): return validator.matches(segment)
        case .composite(let composite, let foldingCase, _): return composite.accepts(segment, foldingCase: foldingCase)
        }
    }

    /// Two checks with the same key are the same edge.
    var key: String {
        switch self {
        case .type(let type): return "<\(type.rawValue)>"
        case .validator(let validator): return "{\(validator.source)}"
        case .composite(let composite, let foldingCase, _): return composite.shape + (foldingCase ? " (any case)" : "")
        }
    }

    /// An automaton accepting at least what the check accepts, to prove two checks disjoint.
    var automaton: SegmentValidator {
        switch self {
        case .type(let type): return type.validator
        case .validator(let validator): return validator
        case .composite(_, _, let automaton): return automaton
        }
    }
}
