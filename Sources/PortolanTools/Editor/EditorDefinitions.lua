---@meta portolan
-- Portolan for the Lua language server (LuaLS): the `portolan` module, node tables, what handlers,
-- guards, interceptors and observers receive, and a scenario file's globals. `portolan types` prints
-- it for a `.luarc.json`'s `workspace.library`; nothing here runs, it describes the compiled-in Lua.

---@alias portolan.ContextValue string|integer|number|boolean
---@alias portolan.Context table<string, portolan.ContextValue>

--- A node's URL patterns, with how they read case and a final slash where that differs from the root's.
---@class portolan.RouteList: string[]
---@field case_insensitive? boolean # these patterns match letters in any case, or (false) only as written
---@field significant_trailing_slash? boolean # these patterns' final `/` is part of what they match, or (false) ignored

--- A node as a route names it: its id and the context it is shown with.
---@class portolan.Entry
---@field id string # the node's id
---@field context portolan.Context # string keys to strings, numbers or booleans; `{}` when none

--- An entry as a destination may write it: an id alone, or `{ id =, context = }`.
---@alias portolan.EntryLike string|{ id: string, context?: portolan.Context }

--- How a push treats a copy of its screen already on the stack (docs/rules.md, "Screens that
--- repeat"): another copy (`"push"`, the default), nothing when it is on top (`"push_new"`), the
--- top taking the new context (`"single_top"`), back to the same entry (`"clear_top"`), back to the
--- nearest copy else in place of the top (`"pop_to"`) or else a push (`"pop_to_or_push"`), back to
--- the one copy (`"single_task"`), or in place of the top screen (`"replace"`).
---@alias portolan.LaunchMode "push"|"push_new"|"single_top"|"clear_top"|"pop_to"|"pop_to_or_push"|"single_task"|"replace"|"bring_to_front"|"reorder_to_front"|"singular"

--- A push's options: its launch mode, and the node it goes back to first (with it, when inclusive).
--- What an update does with the contexts the top screen remembers: `"keep"` them (the default),
--- `"remember"` the one it had, so that back restores it, or `"restore"` the newest, as back does.
---@alias portolan.ContextMemory "keep"|"remember"|"restore"
---@alias portolan.PushOptions { launch?: portolan.LaunchMode, pop_up_to?: string, inclusive?: boolean }

--- Where a route goes: a URL (`"/movies/42"`, `"shop://cart"`); a list of ids or entries from the
--- root; the id or entry of a node declared in `anywhere` (entered on top of the active leaf); a
--- push onto the active stack, `{ push = entry, launch = mode, pop_up_to = id }`; a live copy of a node,
--- `{ id = "product", nth = 2 }` (the second product along the path, as `portolan.find` finds it); or
--- the top screen's context changed in place, `{ update = entry }` or merged, `{ merge = entry }`
--- (with `memory = "remember"`, the screen remembers the context it had, for back); or
--- the stack edited below its top: `{ reset = path }`, `{ remove = entry }`, `{ replace = entry, with = entry }`.
---@alias portolan.Destination string|portolan.EntryLike[]|{ id: string, context?: portolan.Context, nth?: integer }|{ push: portolan.EntryLike, launch?: portolan.LaunchMode, pop_up_to?: string, inclusive?: boolean }|{ update: portolan.EntryLike, memory?: portolan.ContextMemory }|{ merge: portolan.EntryLike, memory?: portolan.ContextMemory }|{ reset: portolan.EntryLike[] }|{ remove: portolan.EntryLike }|{ replace: portolan.EntryLike, with: portolan.EntryLike }

--- The step that asked for a route (`portolan.step`), as handlers, requests and observers see it.
---@class portolan.Step
---@field name string
---@field payload table

--- A route's result: the canonical instructions it executed, in order (`{}` when there was
--- nothing to do), e.g. `{ "switch root -> tabs", "enter movie {id=42}" }`.
---@alias portolan.Instructions string[]

--- A plan: the instructions the route would execute (a plain list, equal to the route's), and,
--- through its locked metatable, what the decisions said.
---@class portolan.Plan: string[]
---@field requested portolan.Entry[] # where the route was asked to go
---@field destination portolan.Entry[] # where it would settle, after any redirect
---@field redirects portolan.Entry[][] # each destination a guard or interceptor sent it to, in order

--- What `portolan.route` returns from a handler, guard, interceptor or observer: the route is
--- queued and runs after the current one.
---@class portolan.Pending
---@field pending true
---@field destination portolan.Destination|"refresh"

---@alias portolan.ErrorKind "unreachable"|"blocked"|"denied"|"handler_failed"|"timeout"|"cancelled"|"duplicated"|"invalid"

--- Why a route failed. Prints as `handler_failed at enter movie {id=7}: app.lua:31: no network (after 1 instruction)`.
---@class portolan.Error
---@field kind portolan.ErrorKind
---@field message string
---@field instruction? string # the instruction that failed, if one did
---@field executed portolan.Instructions # what ran before the failure
---@field rolled_back? portolan.Instructions # the undo's instructions, as they ran, when the route was undone
---@field rollback_error? string # why the undo stopped early, if it did
---@field stage "request"|"route" # `request`: refused before it became a route (no `will_route`); `route`: failed while it ran
---@field url? string # the URL a refused request named, when it led to no destination
---@field redirect_chain? "loop"|"too_long" # a chain of redirects that did not settle: it came back to a location, or went past `max_redirects`
---@field requested? portolan.Entry[] # a plan's error: where the route was asked to go
---@field destination? portolan.Entry[] # a plan's error: where the guards had sent it when it failed
---@field redirects? portolan.Entry[][] # a plan's error: each destination a guard or interceptor sent it to

--- One item of a URL's query, in order; `value` is nil for a name without `=`.
---@class portolan.QueryItem
---@field name string
---@field value? string

--- What a handler receives as `info` (can_leave receives none). The URL fields are there when the
--- route was asked for by URL.
---@class portolan.Info
---@field instruction string # the canonical instruction being run: `enter movie {id=42}`
---@field index integer # the instruction's place in its route, from 1
---@field count integer # how many instructions the route has
---@field last boolean # whether this is the route's last instruction
---@field animated boolean # true for the last instruction only (each one with `animate = "each"` on the root)
---@field destination portolan.Entry[] # the route's whole destination (built when first read)
---@field step? portolan.Step # the step that asked for the route, if one did
---@field url? string # the URL that named where the route goes: the one asked for, or one a redirect named
---@field query? table<string, string|true> # each query name to its first value (`true` without `=`)
---@field query_items? portolan.QueryItem[] # every query item, in order, repeats kept
---@field fragment? string # the URL's fragment
---@field previous? portolan.Entry # for `update`: the entry as it was before the update
---@field under? portolan.Entry # for an insertion (`enter`) or a `move`: the screen it now stands under (nil: on top)

--- What guards and interceptors receive.
---@class portolan.Request
---@field destination portolan.Entry[] # where the route goes, from the root
---@field from portolan.Entry[] # the active path when the route was asked for
---@field step? portolan.Step # the step that asked for the route, if one did
---@field url? string # the URL that named where the route goes: the one asked for, or one a redirect named
---@field query? table<string, string|true> # each query name to its first value (`true` without `=`)
---@field query_items? portolan.QueryItem[] # every query item, in order, repeats kept
---@field fragment? string # the URL's fragment
---@field dry_run boolean # true when a plan asks (`portolan.plan`, `:plan`), which acts on nothing
---@field redirected_from? portolan.Entry[] # on a redirect hop: where the navigation was first asked to go
local Request = {}

--- Whether the route ends at, or passes through, the node `id`.
---@param id string
---@return boolean
function Request:goes_to(id) end

--- `portolan.deny(reason)`: a guard's or interceptor's refusal.
---@class portolan.Deny
---@field reason string

--- `portolan.redirect(dest)`: a guard's or interceptor's redirect.
---@class portolan.Redirect
---@field destination portolan.Destination
---@field resume boolean

--- What a guard or interceptor returns: nothing (or true) to pass; false or `portolan.deny(reason)`
--- to stop the route (`denied`); `portolan.redirect(dest)` to send it elsewhere.
---@alias portolan.Verdict nil|boolean|portolan.Deny|portolan.Redirect

--- A handler succeeds by returning nothing or true, and fails its route by returning false (and a
--- message) or by raising an error.
---@alias portolan.HandlerResult nil|boolean

--- A node table. `node`, as handlers receive it, is this very table: handlers may keep state in it.
---@class portolan.Node
---@field id string # unique in the app
---@field kind? "screen"|"switch" # `"screen"` by default
---@field active? string # a switch node's initial child (its first child by default)
---@field children? portolan.Node[]
---@field route? string|string[]|portolan.RouteList # URL patterns: `"/movies/:id<int>"`, `"myapp://film/:id"`
---@field keep? boolean # on a switch node: keep each child's stack when switching away (a tab bar)
---@field back? "first"|"initial"|"order"|"history"|"full_history"|"none" # on a switch node: where `portolan.back()` takes it among its children
---@field push? string[] # on a screen: ids of nodes declared elsewhere that may be pushed on top of it, any number of times
---@field launch? portolan.LaunchMode # how a push of this node treats a copy already on the stack (default "push")
---@field floor? boolean # on a screen: back never leaves it (the first screen of its stack)
---@field key? string|string[] # the context fields that make an entry this screen: the same key in another context is updated in place
---@field enter? fun(node: portolan.Node, entry: portolan.Entry, info: portolan.Info): portolan.HandlerResult, string? # when the node is entered
---@field leave? fun(node: portolan.Node, entry: portolan.Entry, info: portolan.Info): portolan.HandlerResult, string? # when the node is left
---@field switch? fun(node: portolan.Node, child_entry: portolan.Entry, info: portolan.Info): portolan.HandlerResult, string? # on a switch node, when one of its children becomes active
---@field update? fun(node: portolan.Node, entry: portolan.Entry, info: portolan.Info): portolan.HandlerResult, string? # when the node takes another context in place (`info.previous` is the entry before)
---@field move? fun(node: portolan.Node, entry: portolan.Entry, info: portolan.Info): portolan.HandlerResult, string? # when the screen moves within its stack (`info.under`: the screen it now stands under, nil on top)
---@field can_leave? fun(node: portolan.Node, entry: portolan.Entry): boolean? # before any route that would leave the node: false refuses (`blocked`)
---@field guard? fun(node: portolan.Node, request: portolan.Request): portolan.Verdict # before every route to the node or below it
---@field context_task? fun(node: portolan.Node, entry: portolan.Entry, info: portolan.Info): portolan.HandlerResult, string? # after every route that succeeds, for each node on its destination
---@field [string] any

---@class portolan.Migration
---@field renamed? table<string, string> # old id = "new id"
---@field removed? string[] # ids that no longer exist
---@field moved? table<string, string[]> # id = { its new ancestors, from the root's child down }
---@field context? fun(id: string, context: table): table? # rewrites a saved context
---@field incompatible? boolean # states saved before this version are refused

--- The root's `explore` option: what `portolan explore` tries, and where its expectations do not hold on purpose.
---@class portolan.Explore
---@field state? table<string, (string|number|boolean)[]> # each key of `portolan.state` with the values to try
---@field contexts? table<string, table[]> # example contexts for routes to each node
---@field payloads? table<string, table[]> # example payloads for each flow step
---@field urls? string[] # URLs to try besides the samples of the patterns
---@field back? string[] # nodes where back does not return where the user came from, on purpose
---@field unreachable? string[] # declared nodes no exploration is meant to show

--- What `portolan.restore` did: `reason` for a refusal, `redirected` when a guard sent the app elsewhere.
---@class portolan.RestoreOutcome
---@field outcome "restored"|"migrated"|"refused"
---@field changes string[] # each change a migration made, and why
---@field notes string[] # what the restore noticed besides: rules changed without a version bump
---@field reason? string
---@field redirected? string

--- The root node table, with the app's options.
---@class portolan.App: portolan.Node
---@field anywhere? portolan.Node[] # nodes that can be shown on top of any screen
---@field rollback? boolean # `false` leaves a failed route where it stopped instead of undoing it (default true)
---@field max_redirects? integer # how many redirects one route may follow, 0 to 1000 (default 8)
---@field animate? "last"|"each" # which instructions are animated (default "last")
---@field history? integer # how many finished routes `portolan.history()` keeps, 0 to 10000 (default 100)
---@field queue? "fifo"|"latest_wins" # what a request that arrives during a route does (default "fifo")
---@field max_depth? integer # how many nodes the active path may hold, 2 to 1000 (default 1000)
---@field max_copies? integer # how many copies of one node a path may hold, 1 to 1000 (default 1000)
---@field case_insensitive_routes? boolean # URL patterns match letters in any case (default false)
---@field significant_trailing_slash? boolean # a pattern's final `/` is part of what it matches: `/a/` is not `/a` (default false)
---@field version? integer # which version of the rules this is, for snapshots, 1 to 1000000 (default 1)
---@field migrations? table<integer, portolan.Migration> # what changed at each version (docs/snapshots.md)
---@field explore? portolan.Explore # what `portolan explore` tries (docs/explore.md)
---@field schemes? string[] # the custom URL schemes the app owns: `{ "shop" }`
---@field hosts? string[] # the web hosts the app serves: `{ "shop.example" }`; with `schemes`, they bound `http`/`https` too
---@field handler_timeout? number # how long one handler, guard or interceptor may take, in seconds, more than 0 (default 5, or `portolan test --handler-timeout`)

--- A flow (RxFlow): where each step leads.
---@class portolan.Flow
---@field name string
---@field steps table<string, fun(payload: table): portolan.Destination?> # a step's name to a function returning a destination, or nothing to let later flows answer
---@field adapt? fun(step: string, payload: table): (string|false|nil), table? # rewrite a step (another name and payload), refuse it (false) or leave it (nothing)

--- What `portolan.match` answers.
---@class portolan.Match
---@field node string # the matched node's id
---@field pattern string # the pattern that matched
---@field path string[] # the ids from the root to the node
---@field params portolan.Context # the pattern's parameters
---@field url string # the URL after the redirect rules
---@field query table<string, string|true>
---@field query_items portolan.QueryItem[]
---@field fragment? string

--- A finished route, as `portolan.history()` lists it.
---@class portolan.RouteRecord
---@field destination portolan.Entry[] # where the route settled (after redirects)
---@field requested portolan.Entry[] # where it was asked to go
---@field executed portolan.Instructions
---@field ok boolean
---@field error? portolan.Error

---@alias portolan.Event "will_route"|"instruction"|"did_route"|"failed"|"redirected"|"rolled_back"|"tree_carried"

--- Plain data, what `portolan.state` may hold: nil, booleans, finite numbers, strings, and tables
--- of them keyed by strings or integers (no functions, metatables or cycles).
---@alias portolan.PlainData nil|boolean|number|string|table<string|integer, any>

--- The `portolan` module: `require "portolan"`, also the global `portolan`. Read-only.
---@class portolan
---@field state table<string, portolan.PlainData> # the app's state, which reloads keep (write into it)
portolan = {}

--- Sets each key of `first` that `portolan.state` does not hold yet, and returns the state: the
--- first load sets them all, a reload keeps what the session changed.
---@param first table<string, portolan.PlainData>
---@return table<string, portolan.PlainData>
function portolan.initial_state(first) end

--- Declares the app's graph; `spec` is the root node table. Returns it.
---@param spec portolan.App
---@return portolan.App
function portolan.app(spec) end

--- Runs a route and returns the executed instructions, or nil and an error. From a handler,
--- guard, interceptor or observer the route is queued instead, and a pending handle returns at once.
---@param dest portolan.Destination
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.route(dest) end

--- Pushes an entry onto the active stack (a route to `{ push = entry, launch = options.launch, … }`):
--- on top of the active leaf, or as the launch mode says when the screen is already on the stack,
--- after going back to `options.pop_up_to` in the same route.
---@param entry portolan.EntryLike
---@param options? portolan.PushOptions
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.push(entry, options) end

--- Gives the top screen, which must be `entry`'s node, `entry`'s context in place (a route to
--- `{ update = entry }`): its `update` handler is told; it is neither left nor entered.
---@param entry portolan.EntryLike
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.update(entry) end

--- As `portolan.update`, with `entry`'s context merged over the top screen's own (`{ merge = entry }`).
---@param entry portolan.EntryLike
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.merge(entry) end

--- As `portolan.update`, and the top screen remembers the context it had (`{ update = entry,
--- memory = "remember" }`, React Navigation 8's `pushParams`): back gives it back, and forgets it,
--- before it leaves the screen.
---@param entry portolan.EntryLike
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.push_context(entry) end

--- Routes to `path` by an edit of the active stack (`{ reset = path }`): the screens the live path
--- and this one both hold stay, moved if need be, never left and entered again; the others are
--- removed (their `leave` is told) and inserted (their `enter`).
---@param path portolan.EntryLike[]
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.reset(path) end

--- Takes `entry` out of the active stack from wherever it stands (`{ remove = entry }`).
---@param entry portolan.EntryLike
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.remove(entry) end

--- Puts `replacement` in the place of `entry` on the active stack (`{ replace = entry, with = replacement }`).
---@param entry portolan.EntryLike
---@param replacement portolan.EntryLike
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.replace(entry, replacement) end

--- What `portolan.route(dest)` would do now, decided without doing it: the guards, interceptors,
--- redirects and can_leave answer (`request.dry_run` is true); no handler, context task or observer
--- runs, and the tree, history and pending resume stay. From a script's main flow (or the REPL) only.
---@param dest portolan.Destination
---@return portolan.Plan?
---@return portolan.Error?
function portolan.plan(dest) end

--- Leaves the top screen; nil and an `unreachable` error when there is nothing to leave. With a
--- distance it leaves more in one route: `n` screens, the screens above the first `keep`, or
--- screens from the top while `fn(entry)` is true. From a script's main flow (or the REPL) only.
---@param distance? integer|{ keep: integer }|fun(entry: portolan.Entry): boolean
---@return portolan.Instructions?
---@return portolan.Error?
function portolan.back(distance) end

--- Runs the guards and interceptors for the active path again (after a logout, say): `{}` when
--- they pass, the redirect's route when one redirects, nil and a `denied` error when one denies.
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.refresh() end

--- A tab tap: switches `switch_id` to its child `child_id`, showing what the child keeps open.
---@param switch_id string
---@param child_id string
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.switch_to(switch_id, child_id) end

--- The live path to the node `id` (with these context values, if given), wherever it is in the
--- live tree, kept stacks included, or nil. With `nth`, the nth copy along one path from the root.
---@param id string
---@param context? portolan.Context
---@param nth? integer
---@return portolan.Entry[]?
function portolan.find(id, context, nth) end

--- Drops the stacks the switch nodes of the active path keep for their other children (all, or
--- `switch_id`'s), as after a logout: they show again as first shown. Returns the screens dropped;
--- no handler runs for them.
---@param switch_id? string
---@return portolan.Entry[]
function portolan.reset_tabs(switch_id) end

--- The ids from the root to the active leaf.
---@return string[]
function portolan.active_path() end

--- The entries from the root to the active leaf.
---@return portolan.Entry[]
function portolan.active_entries() end

--- The live tree as text, the active path marked `*`.
---@return string
function portolan.tree() end

--- A snapshot of the app's state: canonical JSON, `portolan-snapshot/2` (docs/snapshots.md).
---@return string
function portolan.snapshot() end
--- Restores a snapshot under the rules in service; never an error, whatever `doc` is.
---@param doc string
---@return portolan.RestoreOutcome
function portolan.restore(doc) end

--- The finished routes, newest last (as many as the root's `history` keeps).
---@return portolan.RouteRecord[]
function portolan.history() end

--- The destination a `portolan.redirect(dest, { resume = true })` set aside, or nil.
---@return portolan.Destination?
function portolan.pending() end

--- Routes to the destination a redirect `{ resume = true }` set aside, and forgets it (by its URL
--- when the route was asked for by one); nil when nothing is pending.
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.resume() end

--- Suspends the calling handler (or script) for `seconds`, 0 to 1,000,000,000; the router waits,
--- within the handler's time limit.
---@param seconds number
function portolan.wait(seconds) end

--- Reports that the UI entered a node by itself; checked against the graph.
---@param entry portolan.EntryLike
---@return true
function portolan.did_enter(entry) end

--- Reports that the UI left a node by itself (a back swipe); checked against the graph.
---@param id string
---@return true
function portolan.did_leave(id) end

--- Reports that the UI took `entry` out of its stack, from below the top screen, by itself (an app's
--- own edit of its navigation stack): what stood on it stays.
---@param entry portolan.EntryLike
---@return true
function portolan.did_remove(entry) end

--- Reports that the UI switched a switch node by itself (a tab tap); checked against the graph.
---@param switch_id string
---@param child_id string
---@return true
function portolan.did_switch(switch_id, child_id) end

--- Adds a global interceptor, run before every route.
---@param fn fun(request: portolan.Request): portolan.Verdict
function portolan.intercept(fn) end

--- A guard's or interceptor's refusal: the route fails as `denied` with this reason.
---@param reason? any
---@return portolan.Deny
function portolan.deny(reason) end

--- A guard's or interceptor's redirect. With `{ resume = true }` the destination the route was
--- going to is set aside for `portolan.resume()`.
---@param dest portolan.Destination
---@param options? { resume?: boolean }
---@return portolan.Redirect
function portolan.redirect(dest, options) end

--- Adds a URL redirect rule, applied before matching: a pattern and a template
--- (`portolan.redirect_rule("/films/:id", "/movies/:id")`), or a function of the URL that returns
--- the new URL or nothing.
---@param from string
---@param to string
---@overload fun(rule: fun(url: string): string?)
function portolan.redirect_rule(from, to) end

--- Where a URL leads, after the redirect rules, or nil and an error.
---@param url string
---@return portolan.Match?
---@return portolan.Error?
function portolan.match(url) end

--- Declares a flow (RxFlow). Returns it.
---@param flow portolan.Flow
---@return portolan.Flow
function portolan.flow(flow) end

--- Asks every flow, in declaration order, where the step leads, and routes to the first
--- destination one returns; nil and an error (`unreachable`, `denied`) when none does.
---@param name string
---@param payload? table
---@return portolan.Instructions|portolan.Pending|nil
---@return portolan.Error?
function portolan.step(name, payload) end

--- Observes router events.
---@param event portolan.Event
---@param fn function
---@overload fun(event: "will_route", fn: fun(destination: portolan.Entry[], step?: portolan.Step))
---@overload fun(event: "instruction", fn: fun(instruction: string))
---@overload fun(event: "did_route", fn: fun(executed: portolan.Instructions, destination: portolan.Entry[], step?: portolan.Step))
---@overload fun(event: "failed", fn: fun(error: portolan.Error, destination: portolan.Entry[], step?: portolan.Step))
---@overload fun(event: "redirected", fn: fun(to: portolan.Entry[], from: portolan.Entry[]))
---@overload fun(event: "rolled_back", fn: fun(instruction: string))
---@overload fun(event: "tree_carried", fn: fun(changes: string[]))
function portolan.on(event, fn) end

--- Runs another Lua file of the app (a relative path to a `.lua` file in the app's directory),
--- as if its text stood here, and returns what it returns.
---@param path string
---@return any
function portolan.load(path) end

-- The globals of a scenario file (`portolan test`) -------------------------------------------------

--- Fails the scenario at the caller's line unless `actual` deeply equals `expected`, showing the
--- difference.
---@param actual any
---@param expected any
---@param message? string
function expect(actual, expected, message) end

--- Asserts, exactly and in order, the router events since the previous `expect_events` (or the
--- scenario's start), in their canonical text: `will_route root > a`, `enter a`,
--- `switch root -> tabs`, `did_route root > a`, `failed denied root > a`, `redirected X -> Y`; a
--- failed route's undo (`rolled_back leave a`) comes before its `failed`.
---@param events string[]
---@param message? string
function expect_events(events, message) end

--- Fails the scenario at the caller's line unless `actual` has everything `expected` names, deeply;
--- extra keys in `actual` are ignored (`expect_match(err, { kind = "denied" })`).
---@param actual any
---@param expected any
---@param message? string
function expect_match(actual, expected, message) end

--- Runs `fn` before each scenario declared after it in the file.
---@param fn fun()
function before_each(fn) end

--- Runs `fn` after each scenario declared after it in the file, whether it passed or not.
---@param fn fun()
function after_each(fn) end

--- Restores `doc`, asserts the outcome's fields that `expected` names (`{ outcome = "migrated" }`), returns it.
---@param doc string
---@param expected table
---@param message? string
function expect_restore(doc, expected, message) end

--- Makes events left unasserted by `expect_events` at the end of the running scenario fail it.
function exhaustive() end

--- Declares a scenario: `scenario(name, fn)`. `scenario.each` declares one per row.
---@class portolan.ScenarioDeclarer
---@overload fun(name: string, fn: fun())
scenario = {}

--- Declares one scenario per row. A row that is a sequence is unpacked into `string.format`'s
--- arguments (for the name) and into `fn`'s; any other row is passed to `fn` as one argument and
--- formatted with `%s` of its printed form.
---@param rows any[]
---@param name_format string
---@param fn fun(...)
function scenario.each(rows, name_format, fn) end

--- Declares a scenario that alone runs, with the others so marked (`portolan test --forbid-only` fails it).
---@param name string
---@param fn fun()
function scenario.only(name, fn) end

--- Declares a scenario that is reported skipped without running.
---@param name string
---@param fn fun()
function scenario.skip(name, fn) end

--- Stops the running scenario and counts it as skipped.
---@param reason? string
function skip(reason) end

return portolan
