import ArgumentParser

/// `portolan explore`: explores an app (`explore APP.lua`, the same as `explore run APP.lua`), or
/// joins the shards of one exploration (`explore merge`), docs/explore.md.
struct Explore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: ExploreRun.configuration.abstract,
        subcommands: [ExploreRun.self, ExploreMergeCommand.self],
        defaultSubcommand: ExploreRun.self
    )
}
