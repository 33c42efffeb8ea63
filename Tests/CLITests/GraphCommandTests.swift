import Foundation
import Testing
import TestSupport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `portolan graph`, the built binary driven end to end.
@Suite struct GraphCommandTests {
    @Test func textShowsTheDeclaredTreeWithSwitchesAndRoutes() async throws {
        let run = try await PortolanBinary.run(["graph", "Examples/movies/app.lua"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("root [switch] (active: onboarding)"))
        #expect(run.stdout.contains("/wishlist/movies/:id<int>"))
        #expect(run.stdout.contains("anywhere:"))
    }

    @Test func svgIsAWellFormedPictureOfEveryNode() async throws {
        let run = try await PortolanBinary.run(["graph", "Examples/portus/app.lua", "--format", "svg"])
        #expect(run.status == 0)
        _ = try XMLDocument(data: Data(run.stdout.utf8))   // throws unless well-formed
        let ids = ["switchNode1", "switchNode2", "switchNode3"] + (1...13).map { "node\($0)" }
        for id in ids {
            #expect(run.stdout.components(separatedBy: "data-id=\"\(id)\"").count == 2, "\(id) drawn once")
        }
    }

    @Test func everyFormatDraws() async throws {
        for format in ["dot", "mermaid", "json"] {
            let run = try await PortolanBinary.run(["graph", "Examples/portus/app.lua", "--format", format])
            #expect(run.status == 0, "\(format): \(run.stderr)")
            #expect(run.stdout.contains("switchNode3"), "\(format)")
        }
    }

    @Test func anAppThatDoesNotLoadIsAnErrorWithItsLine() async throws {
        let directory = try TemporaryDirectory("graph", files: ["broken.lua": "portolan.app {\n  id = 'root',\n"])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["graph", directory.path("broken.lua")])
        #expect(run.status == 1)
        #expect(run.stderr.contains("broken.lua:"))
    }
}

/// `portolan graph` shows the rules that can stop or change a route, in every format.
@Suite struct GraphRulesTests {
    @Test func guardsCanLeaveKeepContextTasksAndFlowsShowInEveryFormat() async throws {
        for format in ["text", "dot", "mermaid", "json", "svg"] {
            let run = try await PortolanBinary.run(["graph", "Examples/movies/app.lua", "--format", format])
            #expect(run.status == 0, "\(format): \(run.stderr)")
            if format == "json" {
                #expect(run.stdout.contains(#""rules": ["keep", "back: history", "guard"], "guardRedirects": ["root > onboarding"]"#), "json shows the dashboard's rules")
                #expect(run.stdout.contains(#""rules": ["can_leave"]"#), "json shows the settings' can_leave")
                #expect(run.stdout.contains(#""rules": ["context_task"]"#), "json shows the movie screens' context task")
            } else {
                #expect(run.stdout.contains("[keep, back: history, guard → root "), "\(format) shows the dashboard's rules")
                #expect(run.stdout.contains("[can_leave]"), "\(format) shows the settings' can_leave")
                #expect(run.stdout.contains("[context_task]"), "\(format) shows the movie screens' context task")
            }
            #expect(run.stdout.contains("flow movies: movie_picked, settings_wanted (adapts steps)"), "\(format) shows the flows")
        }
    }
}

/// `portolan graph` loads an app under limits (issue 10, item 4): an endless script is stopped.
@Suite struct GraphLimitsTests {
    @Test func anEndlessLoopOrWaitIsStoppedWithAClearError() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "loops.lua": "portolan.app { id = \"root\" }\nwhile true do end\n",
            "waits.lua": "portolan.app { id = \"root\" }\nportolan.wait(1000)\n",
        ])
        defer { directory.remove() }
        let loops = try await PortolanBinary.run(["graph", "loops.lua"], in: directory)
        #expect(loops.status == 1)
        // The budget, or on a busy machine the load's time limit: either names the looping line.
        #expect(loops.stderr.contains("loops.lua:2: instruction budget exceeded")
                || loops.stderr.contains("loops.lua:2: the script did not finish within"), "\(loops.stderr)")
        let waits = try await PortolanBinary.run(["graph", "--timeout", "1", "waits.lua"], in: directory)
        #expect(waits.status == 1)
        // Cut by the time limit where it waits.
        #expect(waits.stderr.contains("waits.lua:2: the script did not finish within 1.0 seconds"), "\(waits.stderr)")
    }
}
