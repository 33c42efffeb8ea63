import Portolan
import PortolanLua

/// What a line typed at a fresh REPL prompt asks for.
///
/// Shortcuts are recognised only at the start of a chunk: inside a statement that continues over
/// several lines, every line is Lua (a line starting with `/` may be a division).
public enum ReplInput: Equatable, Sendable {
    /// Nothing but whitespace.
    case empty
    /// Lua source, evaluated as lua.c does.
    case lua(String)
    /// `/wishlist/movies/42`, `myapp://movie/42` or `/root/dashboard`: route to that URL, or to
    /// that id path when no route pattern matches it (the text, slash included).
    case route(String)
    /// `:tree`
    case tree
    /// `:plan DEST`: the destination as a URL, an id path or a Lua expression (the text after `:plan`).
    case plan(String)
    /// `:back` or `:back N`: leave the top screen, or the top N (the text after `:back`).
    case back(String)
    /// `:history`: the route requests of the session and their results.
    case history
    /// `:reload`: run the app script again (hot reload).
    case reload
    /// `:record FILE`, `:record off`, `:record` (the text after `:record`).
    case record(String)
    /// `:events on|off` (the text after `:events`).
    case events(String)
    /// `:graph [FORMAT [FILE]]` (the text after `:graph`).
    case graph(String)
    /// `:save FILE`: write a snapshot of the app's state to FILE.
    case save(String)
    /// `:restore FILE`: restore the snapshot in FILE.
    case restore(String)
    /// `:help`
    case help
    /// `:quit` or `:q`
    case quit
    /// A `:` shortcut that does not exist (its name, without the colon).
    case unknown(String)

    public init(line: String) {
        let text = line.replTrimmed()
        if text.isEmpty {
            self = .empty
        } else if ParsedURL.isURL(text) {
            self = .route(text)
        } else if text.first == ":" && !text.hasPrefix("::") {  // `::label::` is Lua
            let body = text.dropFirst()
            let name = String(body.prefix(while: { !$0.isWhitespace }))
            let argument = body.dropFirst(name.count).replTrimmed()
            switch name {
            case "tree": self = .tree
            case "plan": self = .plan(argument)
            case "back", "b": self = .back(argument)
            case "history": self = .history
            case "reload", "r": self = .reload
            case "record": self = .record(argument)
            case "events": self = .events(argument)
            case "graph": self = .graph(argument)
            case "save": self = .save(argument)
            case "restore": self = .restore(argument)
            case "help", "h", "?": self = .help
            case "quit", "q", "exit": self = .quit
            default: self = .unknown(name)
            }
        } else {
            self = .lua(line)
        }
    }

    /// The `:` commands, as completion offers them.
    public static let commandNames = [
        "back", "events", "graph", "help", "history", "plan", "quit", "record", "reload", "restore", "save", "tree",
    ]

    /// The text `:help` prints.
    public static let helpText = """
        Type Lua: an expression is printed (`portolan.active_path()`), a statement is run, and a
        statement left open (`function f()`) continues on the next line. Shortcuts:
          /wishlist/movies/42        route to a URL, as portolan.route("/wishlist/movies/42") does
          myapp://movie/42           (a line that starts with / or with scheme://); the pattern
                                     that matched is shown first
          /root/dashboard/wishlist   an id path: when no route pattern matches a line that starts
                                     with the root's id, it routes by ids from the root (an id may
                                     carry a context: /root/dashboard/wishlist/wishlist_movie{id=42})
          :plan DEST                 what routing to DEST would do, without doing it; DEST is a
                                     URL, an id path or a Lua destination: :plan {"root", "dashboard"}
          :tree                      the live routing tree (* marks the active path, · what a
                                     switch node off it shows when you switch back to it)
          :back [N]                  leave the top screen of the active path (its last node that
                                     is not managed by a switch node), or the top N in one route
          :history                   the route requests of this session and what they did
          :graph [FORMAT [FILE]]     the live tree, active path highlighted: text (default), dot,
                                     mermaid, json or svg; to FILE when given (svg needs one:
                                     :graph svg t.svg)
          :events on|off             print router events as they happen
          :reload                    run the app script again; what no longer exists is left,
                                     portolan.state is kept, and the guards are asked again;
                                     beside a bundle.json, only once the edit passes its gate
          :record FILE               from now on, write the session's routes (and the Lua typed
                                     between them) to FILE as a scenario for `portolan test`;
                                     :record off (or :record) stops
          :save FILE                 write a snapshot of the app's state (tree, kept stacks,
                                     histories, app state) to FILE (docs/snapshots.md)
          :restore FILE              restore a snapshot under the rules in service: restored,
                                     migrated (with each change) or refused (the tree unchanged)
          :help                      this text
          :quit, :q                  leave (Ctrl-D and the end of input do too)
        From Lua: portolan.route(dest), portolan.plan(dest), portolan.tree(), portolan.active_path().
        Tab completes Lua names and fields (portolan.ro<Tab>), node ids in quotes, URL routes and
        id paths after /, and : commands. Ctrl-C stops a running chunk (`while true do end`) and
        clears the line at the prompt.
        """
}
