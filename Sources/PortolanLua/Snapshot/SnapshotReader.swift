import Portolan

/// Reads a snapshot's bytes into a document, or says why they are not one. Whatever the bytes, it
/// returns: the size is checked first, then `JSONReader` reads the value (refusing nesting deeper
/// than `SnapshotLimits.maximumNesting` as it meets it) and `SnapshotDocument` its shape.
public enum SnapshotReader {
    public static func document(from bytes: [UInt8]) -> Result<SnapshotDocument, SnapshotError> {
        guard bytes.count <= SnapshotLimits.maximumBytes else {
            return .failure(SnapshotError("too large: \(bytes.count) bytes, more than \(SnapshotLimits.maximumBytes)"))
        }
        let value: JSONValue
        do {
            value = try JSONReader.value(of: bytes, maximumNesting: SnapshotLimits.maximumNesting)
        } catch .tooDeep {
            return .failure(SnapshotError("not a snapshot: its values nest deeper than \(SnapshotLimits.maximumNesting)"))
        } catch {
            return .failure(SnapshotError("not a snapshot: the bytes are not JSON (\(error))"))
        }
        return Result { () throws(SnapshotError) in try SnapshotDocument(json: value) }
    }

    /// The JSON value of some bytes, for tools that read values of their own (nil when not JSON
    /// or nested too deep).
    public static func json(from bytes: [UInt8]) -> JSONValue? {
        guard bytes.count <= SnapshotLimits.maximumBytes else { return nil }
        return try? JSONReader.value(of: bytes, maximumNesting: SnapshotLimits.maximumNesting)
    }
}
