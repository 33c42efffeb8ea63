import Foundation
import Lua
import Portolan
import PortolanLua
@testable import PortolanTools
import Testing
import TestSupport
@testable import PortolanShipping

/// The LuaLS definitions (`portolan types`) against what a real host exposes at run time: the
/// `portolan` module's names, the fields of node tables, of the objects handlers receive, and the
/// scenario globals. A name added to one side and not the other fails here.
@Suite struct EditorDefinitionsTests {
    /// What the definitions file declares: each class's fields, and the functions it defines.
    struct Declared {
        var fields: [String: Set<String>] = [:]
        var functions: Set<String> = []

        init(_ text: String) {
            var current: String?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix("---@class ") {
                    let name = line.dropFirst("---@class ".count).split(separator: ":").first.map(String.init) ?? ""
                    current = name.trimmingCharacters(in: .whitespaces)
                    fields[current ?? "", default: []] = fields[current ?? ""] ?? []
                } else if line.hasPrefix("---@field "), let current {
                    let name = line.dropFirst("---@field ".count).split(separator: " ").first.map(String.init) ?? ""
                    if !name.hasPrefix("[") { fields[current, default: []].insert(name.hasSuffix("?") ? String(name.dropLast()) : name) }
                } else if line.hasPrefix("function ") {
                    let signature = line.dropFirst("function ".count)
                    functions.insert(String(signature.prefix { $0 != "(" }))
                } else if !line.hasPrefix("---") {
                    current = nil
                }
            }
        }
    }

    static let declared = Declared(EditorDefinitions.text)

    /// The strings of the list a chunk returned.
    static func strings(_ values: [LuaValue]) -> [String] {
        (values.first?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// The names `shown(portolan)` holds, each with its Lua type, read raw in a real host.
    @Test func everyNameOfTheModuleIsDeclaredAndEveryDeclaredFunctionExists() async throws {
        let host = try PortolanHost()
        let pairs = try await host.perform { host in
            try Self.strings(host.call("""
                local shown = ...
                local names = {}
                for name, value in next, shown(portolan) do names[#names + 1] = name .. " " .. type(value) end
                return names
                """, chunkName: "=names", arguments: [try host.shownTableFunction]))
        }
        let runtime = pairs.map { $0.split(separator: " ").map(String.init) }
        #expect(runtime.count > 20, "\(runtime)")
        var functions: Set<String> = []
        for pair in runtime {
            try #require(pair.count == 2)
            if pair[1] == "function" {
                functions.insert(pair[0])
                #expect(Self.declared.functions.contains("portolan." + pair[0]), "portolan.\(pair[0]) has no definition")
            } else {
                #expect(Self.declared.fields["portolan"]?.contains(pair[0]) == true, "portolan.\(pair[0]) has no ---@field")
            }
        }
        for declared in Self.declared.functions where declared.hasPrefix("portolan.") {
            #expect(functions.contains(String(declared.dropFirst("portolan.".count))), "\(declared) is defined but the module has no such function")
        }
    }

    @Test func nodeTablesDeclareEveryHandlerAndFieldPortolanReads() throws {
        let node = try #require(Self.declared.fields["portolan.Node"])
        let app = try #require(Self.declared.fields["portolan.App"])
        let read = Set(HandlerName.allCases.map(\.rawValue)).union(AppLinter.structuralFields)
        #expect(node.union(app) == read, "declared but never read: \(node.union(app).subtracting(read)); read but not declared: \(read.subtracting(node.union(app)))")
        for handler in HandlerName.allCases {
            #expect(node.contains(handler.rawValue), "\(handler.rawValue) is not a field of portolan.Node")
        }
    }

    /// The request, info, entry and error objects a real route hands over: every key they hold is a
    /// declared field (the request's methods included).
    @Test func theObjectsHandlersReceiveHoldOnlyDeclaredFields() async throws {
        let host = try PortolanHost()
        try await host.loadApp(.source("""
            seen = {}
            local function note(kind, t)
              for key in next, t do
                if not tostring(key):match("^__") then seen[#seen + 1] = kind .. " " .. tostring(key) end
              end
            end
            portolan.app { id = "root", children = {
              { id = "a", route = "/a/:n<int>",
                enter = function(_, entry, info)
                  local _ = info.destination, info.step   -- built when read
                  note("portolan.Info", info) note("portolan.Entry", entry)
                end,
                guard = function(_, request)
                  note("portolan.Request", request)
                  -- Its methods are behind a locked metatable: each declared one must be there.
                  if type(request.goes_to) == "function" then seen[#seen + 1] = "portolan.Request goes_to" end
                end },
              { id = "b", enter = function() return false, "no" end } } }
            portolan.flow { name = "f", steps = { go = function() return "/a/1?x=1&y#top" end } }
            """, chunkName: "=app"))
        let seen = try await host.perform { host in
            try Self.strings(host.call("""
                assert(portolan.step("go"))
                local _, err = portolan.route { "root", "b" }
                assert(err and err.rolled_back, "the route to b is undone")
                for key in next, err do seen[#seen + 1] = "portolan.Error " .. key end
                local match = assert(portolan.match("/a/2?q#f"))
                for key in next, match do seen[#seen + 1] = "portolan.Match " .. key end
                return seen
                """, chunkName: "=route"))
        }
        let kinds = Set(seen.compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(kinds == ["portolan.Info", "portolan.Entry", "portolan.Request", "portolan.Error", "portolan.Match"], "\(seen)")
        for item in seen {
            let parts = item.split(separator: " ").map(String.init)
            try #require(parts.count == 2)
            let declared = (Self.declared.fields[parts[0]] ?? []).union(
                Self.declared.functions.filter { $0.hasPrefix("Request:") }.map { String($0.dropFirst("Request:".count)) })
            #expect(declared.contains(parts[1]), "\(parts[0]) has '\(parts[1])' at run time, which is not declared")
        }
    }

    /// The globals a scenario file sees beyond a plain host's: what the expect library defines.
    @Test func theScenarioGlobalsAreDeclared() async throws {
        let scratch = try TemporaryDirectory("types")
        defer { scratch.remove() }
        let directory = scratch.root
        try """
            scenario("lists its globals", function()
              for name, value in next, _ENV do print(name .. " " .. type(value)) end
              if type(scenario) == "table" then
                for name in next, scenario do print("scenario." .. name .. " member") end
              end
              expect(1, 2)   -- fails, so that the output is kept
            end)
            """.write(toFile: directory + "/s.lua", atomically: true, encoding: .utf8)
        let results = await ScenarioRunner(options: .init(app: nil, timeout: .seconds(60))).run(files: [directory + "/s.lua"])
        let result = try #require(results.count == 1 ? results.first : nil)
        let plain = try PortolanHost()
        let builtinNames = Set(try await plain.perform { host in
            try Self.strings(host.call(
                "local names = {} for name in next, _G do names[#names + 1] = name end return names", chunkName: "=g"))
        })
        let library = result.output.compactMap { line -> String? in
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count == 2, !builtinNames.contains(parts[0]) else { return nil }
            return parts[0]
        }
        #expect(Set(library).isSuperset(of: ["expect", "scenario", "skip"]), "\(result.output)")
        let declared = Self.declared.functions.union(Self.declared.fields.keys).union(["scenario"])
        for name in library {
            #expect(declared.contains(name), "the scenario global \(name) is not declared")
        }
        // Declared globals that the runtime lacks.
        let globals = Self.declared.functions.filter { !$0.contains(".") && !$0.contains(":") }.union(["scenario.each"])
        for name in globals.sorted() {
            #expect(library.contains(name), "\(name) is declared but scenario files lack it")
        }
    }

    /// The root's options as the editor shows them: each option the host reads (`RootOption`), and
    /// no other, with the bounds and defaults the runtime keeps.
    @Test func theRootOptionsAreDeclaredWithTheirBoundsAndDefaults() throws {
        let app = try #require(Self.declared.fields["portolan.App"])
        #expect(app == Set(RootOption.allCases.map(\.rawValue)).union(["anywhere"]))
        let defaults: [RootOption: Int] = [
            .maxRedirects: RouterConfiguration().maxRedirects, .history: RouterConfiguration().historyLimit,
            .maxDepth: PathLimits.engine.maxDepth, .maxCopies: PathLimits.engine.maxCopies,
            // An app that declares no version is version 1, the first.
            .version: RulesIdentity.versions.lowerBound,
        ]
        for option in RootOption.allCases {
            guard let range = option.range else { continue }
            let line = EditorDefinitions.text.split(separator: "\n").first { $0.hasPrefix("---@field \(option.rawValue)?") }
            let text = try #require(line.map(String.init), "\(option.rawValue) has no ---@field")
            #expect(text.contains("\(range.lowerBound) to \(range.upperBound)"), "\(text)")
            let fallback = try #require(defaults[option], "\(option.rawValue) has no default in this test")
            #expect(text.contains("(default \(fallback))"), "\(text)")
        }
    }

    /// `portolan.LaunchMode` is the engine's list of launch modes.
    @Test func theLaunchModesAreTheEngines() throws {
        let prefix = "---@alias portolan.LaunchMode "
        let line = try #require(EditorDefinitions.text.split(separator: "\n").first { $0.hasPrefix(prefix) })
        let names = line.dropFirst(prefix.count).split(separator: "|").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        #expect(names == LaunchMode.allCases.map(\.rawValue))
    }

    /// `portolan.Event`, the names `portolan.on` takes, is the list the module gets from the host.
    @Test func theEventNamesAreThoseScriptsObserve() throws {
        let prefix = "---@alias portolan.Event "
        let line = try #require(EditorDefinitions.text.split(separator: "\n").first { $0.hasPrefix(prefix) })
        let names = line.dropFirst(prefix.count).split(separator: "|").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        #expect(names == RouterEvent.Name.observedByScripts.map(\.rawValue))
    }
}
