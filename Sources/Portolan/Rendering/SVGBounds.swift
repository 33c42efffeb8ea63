/// The rectangle that holds everything an SVG drawing draws, grown as each piece is drawn, so the
/// `viewBox` is computed from what is really there (boxes with their strokes, the anywhere frame
/// and its label, loops, texts, the legend) and nothing is cut off when the picture scales.
///
/// Text has no font metrics here, so its ink is estimated on the wide side: a browser's fallback
/// sans-serif (DejaVu Sans on Debian) is wider than Helvetica, and bold wider still. The layout
/// keeps its own, tighter estimate (`TreeLayout.textWidth`): this one only decides how much room
/// the picture leaves around itself.
struct SVGBounds {
    private(set) var minX = 0, minY = 0, maxX = 0, maxY = 0

    enum Face {
        case regular, bold, monospace

        /// Advance per character, in tenths of an em, on the wide side of common fonts.
        var advanceTenths: Int {
            switch self {
            case .regular: return 7
            case .bold: return 8
            case .monospace: return 7
            }
        }
    }

    enum Anchor {
        case start, middle
    }

    /// How far a stroke may reach outside the shape it outlines (the thickest is 3.5 px wide).
    static let strokeReach = 2

    /// Grows to hold a rectangle, widened by `reach` on every side.
    mutating func include(x: Int, y: Int, width: Int, height: Int, reach: Int = strokeReach) {
        minX = min(minX, x - reach)
        minY = min(minY, y - reach)
        maxX = max(maxX, x + width + reach)
        maxY = max(maxY, y + height + reach)
    }

    /// Grows to hold a line of text whose baseline starts (or is centred) at `x`, `baseline`.
    mutating func includeText(_ text: String, x: Int, baseline: Int, fontSize: Int, face: Face = .regular, anchor: Anchor = .start) {
        let width = Self.inkWidth(text, fontSize: fontSize, face: face)
        let left = anchor == .middle ? x - (width + 1) / 2 : x
        // Ascenders reach about an em above the baseline, descenders a third of one below.
        include(x: left, y: baseline - fontSize, width: width, height: fontSize + (fontSize + 2) / 3, reach: 1)
    }

    /// The estimated width of a line of text, wide characters (CJK, emoji) counting double.
    static func inkWidth(_ text: String, fontSize: Int, face: Face) -> Int {
        (TreeLayout.widthUnits(text) * fontSize * face.advanceTenths + 9) / 10
    }

    /// The `viewBox` value: what was drawn, with `margin` around it on the right and bottom, and
    /// the origin kept at 0, 0 unless something reaches further up or left.
    func viewBox(margin: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        (minX, minY, maxX + margin - minX, maxY + margin - minY)
    }
}
