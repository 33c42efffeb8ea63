import ArgumentParser

/// `portolan explore`: explores an app (`explore APP.lua`, the same as `explore run APP.lua`), or
/// joins the shards of one exploration (`explore merge`), docs/explore.md.
struct Explore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: ExploreRun.configuration.abstract,
        usage: """
            portolan explore [run] <app.lua> [<options>]
            portolan explore merge <shard.json> ... [<options>]
            """,
        discussion: "The options of an exploration: portolan explore run --help. Joining shards: portolan explore merge --help.",
        subcommands: [ExploreRun.self, ExploreMergeCommand.self],
        defaultSubcommand: ExploreRun.self
    )
}
