import Lua
import PortolanLua
@testable import PortolanShipping
import Testing
@testable import PortolanTools

/// The shipping target's and the tools' chunks as bytecode built into the binary (`BuiltInChunk`:
/// `ShippingBytecode`, `ToolBytecode`; `scripts/compile-module.lua`): each is what this process
/// would compile from the source the gate and the tools run, so hosts load it instead of parsing;
/// a source changed since is parsed, never loaded from stale bytecode.
@Suite struct BuiltInChunkTests {
    @Test func everyChunksBytecodeIsItsSourceCompiledByThisLuaRelease() throws {
        let chunks = ShippingBytecode.all + ToolBytecode.all
        #expect(chunks.count == 4)
        let state = try LuaState()
        for chunk in chunks {
            // Failing here: a chunk changed, or the Lua library is another release. Run
            // `lua5.4 scripts/compile-module.lua` and commit Sources/PortolanShipping/Bytecode and
            // Sources/PortolanTools/Bytecode.
            let precompiled = PortolanHost.builtInBytecode(chunk.bytecode, of: chunk.source, chunkName: chunk.chunkName, manifest: chunk.manifest)
            #expect(precompiled != nil, "\(chunk.chunkName): its bytecode is stale; run lua5.4 scripts/compile-module.lua")
            let compiled = try state.compile(chunk.source, chunkName: chunk.chunkName)
            #expect(precompiled?.bytes == compiled.bytes, "\(chunk.chunkName)")
        }
    }

    /// The bytecode is of the very text and chunk name the tools run, so that their loads find it.
    @Test func theChunksAreWhatTheToolsRun() {
        #expect(ToolBytecode.demoApp.source == Array(DemoApp.source.utf8))
        #expect(ToolBytecode.demoApp.chunkName == DemoApp.chunkName)
        #expect(ShippingBytecode.expectLibrary.source == Array(expectLibrarySource.utf8))
        #expect(ShippingBytecode.expectLibrary.chunkName == expectLibraryChunkName)
        #expect(ShippingBytecode.checkPrelude.source == Array(checkPreludeSource.utf8))
        #expect(ShippingBytecode.checkPrelude.chunkName == checkPreludeChunkName)
        #expect(ToolBytecode.replKeys.source == Array(replKeysSource.utf8))
        #expect(ToolBytecode.replKeys.chunkName == replKeysChunkName)
        #expect(DemoApp.useBuiltInBytecode())
        #expect(ShippingBytecode.expectLibraryInUse && ShippingBytecode.checkPreludeInUse && ToolBytecode.replKeysInUse)
    }

    @Test func aChangedSourceIsParsedNotLoadedFromItsOldBytecode() {
        let chunk = ShippingBytecode.expectLibrary
        let manifest = chunk.manifest
        #expect(PortolanHost.builtInBytecode(chunk.bytecode, of: chunk.source, chunkName: chunk.chunkName, manifest: manifest) != nil)
        let changed = chunk.source + Array("\n-- changed\n".utf8)
        #expect(PortolanHost.builtInBytecode(chunk.bytecode, of: changed, chunkName: chunk.chunkName, manifest: manifest) == nil)
        #expect(PortolanHost.useBuiltInBytecode(chunk.bytecode, of: changed, chunkName: chunk.chunkName, manifest: manifest) == false)
        #expect(PortolanHost.builtInBytecode(chunk.bytecode, of: chunk.source, chunkName: "=another", manifest: manifest) == nil)
        // Another release's manifest: the bytecode is not this library's.
        let otherRelease = Array("Lua 5.4.0".utf8) + manifest.drop { $0 != UInt8(ascii: "\n") }
        #expect(PortolanHost.builtInBytecode(chunk.bytecode, of: chunk.source, chunkName: chunk.chunkName, manifest: otherRelease) == nil)
    }

    /// The demo app loaded from its bytecode declares its graph, as from its source.
    @Test func theDemoAppFromTheBytecodeDeclaresItsGraph() async throws {
        #expect(DemoApp.useBuiltInBytecode())
        let fromBytecode = try PortolanHost()
        try await fromBytecode.loadApp(.source(DemoApp.source, chunkName: DemoApp.chunkName))
        let fromSource = try PortolanHost()
        try await fromSource.loadApp(.source(DemoApp.source + "\n", chunkName: DemoApp.chunkName))
        let nodes = await fromBytecode.graph?.nodes.map(\.id)
        #expect((nodes?.count ?? 0) > 3)
        #expect(nodes == (await fromSource.graph?.nodes.map(\.id)))
    }
}
