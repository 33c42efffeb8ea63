import Lua
@testable import PortolanLua
import Testing

/// The module's bytecode built into the binary (`PrecompiledModule`, `scripts/compile-module.lua`):
/// it is what this process would compile from the source, so a host loads it instead of parsing;
/// a part whose source changed since is parsed, never loaded from stale bytecode.
@Suite struct ModuleBytecodeTests {
    @Test func everyPartsBytecodeIsItsSourceCompiledByThisLuaRelease() throws {
        let parts = PortolanModule.partsInLoadOrder
        #expect(parts.count == 9)
        let state = try LuaState()
        for part in parts {
            // Failing here: a part changed, or the Lua library is another release. Run
            // `lua5.4 scripts/compile-module.lua` and commit Sources/PortolanLua/Module/Bytecode.
            let precompiled = PrecompiledModule.chunk(for: part)
            #expect(precompiled != nil, "\(part.chunkName): its bytecode is stale; run lua5.4 scripts/compile-module.lua")
            let compiled = try state.compile(part.source, chunkName: part.chunkName)
            #expect(precompiled?.bytes == compiled.bytes, "\(part.chunkName)")
        }
    }

    @Test func aChangedSourceIsParsedNotLoadedFromItsOldBytecode() throws {
        let main = PortolanModule.main
        #expect(PrecompiledModule.chunk(for: main) != nil)
        var changed = main.source
        changed.append(contentsOf: Array("\n-- changed\n".utf8))
        let stale = PortolanModule.Part(source: changed, bytecode: main.bytecode, chunkName: main.chunkName)
        #expect(PrecompiledModule.chunk(for: stale) == nil)
        let renamed = PortolanModule.Part(source: main.source, bytecode: main.bytecode, chunkName: "=another")
        #expect(PrecompiledModule.chunk(for: renamed) == nil)
    }

    /// The hash is the one the script writes: FNV-1a's published test vectors.
    @Test func theHashIsFNV1a64() {
        #expect(PrecompiledModule.fnv1a([]) == 0xcbf2_9ce4_8422_2325)
        #expect(PrecompiledModule.fnv1a(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(PrecompiledModule.fnv1a(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
    }

    /// A host started from the bytecode behaves as the module does: errors still name the
    /// module's chunk and the script's line (the bytecode keeps its line information).
    @Test func aHostFromTheBytecodeReportsMisuseAtTheScriptsLine() async throws {
        let host = try PortolanHost()
        let error = await #expect(throws: (any Error).self) {
            try await host.loadApp(.source("\nportolan.app(42)", chunkName: "app.lua"))
        }
        #expect(String(describing: error).contains("app.lua:2"))
    }
}
