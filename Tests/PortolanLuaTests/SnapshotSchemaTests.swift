#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@testable import Portolan
import PortolanLua
import Testing
import TestSupport

/// docs/snapshot.schema.json against what the engine writes: each form of an instruction and of a
/// destination matches one of the schema's alternatives, and its launch modes are the engine's. The
/// schema is for people writing tools; this keeps it from drifting when a form is added.
@Suite struct SnapshotSchemaTests {
    private static func definitions() throws -> [String: JSONValue] {
        let url = URL(fileURLWithPath: Repository.root + "/docs/snapshot.schema.json")
        let schema = try #require(SnapshotReader.json(from: [UInt8](Data(contentsOf: url))))
        return try #require(schema.objectValue?["$defs"]?.objectValue)
    }

    /// Whether some alternative of `definition` requires no member `value` lacks and allows every
    /// member it has.
    private static func matches(_ value: JSONValue, _ definition: JSONValue?) -> Bool {
        guard let members = value.objectValue, let alternatives = definition?.objectValue?["oneOf"]?.arrayValue else { return false }
        return alternatives.contains { alternative in
            let required = Set((alternative.objectValue?["required"]?.arrayValue ?? []).compactMap(\.stringValue))
            let allowed = Set(alternative.objectValue?["properties"]?.objectValue?.keys.map { $0 } ?? [])
            return required.isSubset(of: members.keys) && Set(members.keys).isSubset(of: allowed)
        }
    }

    @Test func everyInstructionTheEngineWritesIsInTheSchema() throws {
        let (a, b) = (Entry("a"), Entry("b", context: ["id": .integer(1)]))
        let instructions: [Instruction] = [
            .enter(a), .leave(a), .switch(a, to: b), .update(b, to: b), .remove(a), .insert(a, under: b),
            .move(a, under: b), .move(a, under: nil),
        ]
        let definitions = try Self.definitions()
        for instruction in instructions {
            let inSchema = Self.matches(SnapshotFields.instruction(instruction), definitions["instruction"])
            #expect(inSchema, "\(instruction) has no form in the schema")
        }
    }

    @Test func everyDestinationTheEngineWritesIsInTheSchema() throws {
        let (a, b) = (Entry("a"), Entry("b", context: ["id": .integer(1)]))
        let destinations: [Destination] = [
            .path(["root", a]), .anywhere(a), .push(b, launch: .singular, popUpTo: PopUpTo("a", inclusive: true)),
            .live("b", context: ["id": .integer(1)], occurrence: 2), .update(b), .update(b, merging: true),
            .update(b, memory: .remember), .update(b, merging: true, memory: .restore),
            .reset(["root", a]), .remove(a), .replace(a, with: b),
        ]
        let definitions = try Self.definitions()
        for destination in destinations {
            let inSchema = Self.matches(SnapshotFields.destination(destination), definitions["destination"])
            #expect(inSchema, "\(destination) has no form in the schema")
        }
        let push = definitions["destination"]?.objectValue?["oneOf"]?.arrayValue?.first { $0.objectValue?["properties"]?.objectValue?["push"] != nil }
        let launches = push?.objectValue?["properties"]?.objectValue?["launch"]?.objectValue?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(launches == LaunchMode.allCases.map(\.rawValue))
    }
}
