import Portolan
import PortolanLua

// Lints of the options an app sets: the root's (each one `portolan.app` would refuse, as
// `AppOptions` reads them), a node's (`back`, `launch`, `keep`, `key`, `floor`), and
// a launch mode written literally in a `portolan.push` call's options or a `{ push = … }` destination.
// Each bad value is reported at its own field's line, with the value and what it may be, whatever
// else is wrong: `portolan.app` stops at the first one, the linter does not.

extension AppLinter {
    mutating func checkOptions() {
        if let root = visited.first, root.node.typeName == "table" {
            for option in RootOption.allCases {
                checkRootOption(option, of: root)
            }
        }
        for item in visited where item.node.typeName == "table" && !item.node.isCycle {
            checkNodeOptions(item)
        }
        for push in facts.pushLaunches where LaunchMode(rawValue: push.launch) == nil {
            let modes = LaunchMode.allCases.map(\.rawValue)
            report(.error, .invalidOption, line: push.line,
                   "\(push.written): launch must be \(DeclaredValue.either(modes)), not \"\(push.launch)\"")
        }
    }

    /// A root option `portolan.app` would refuse, read as it reads them (`AppOptions`).
    private mutating func checkRootOption(_ option: RootOption, of root: Visited) {
        guard let mistake = app.optionMistakes[option] else { return }
        report(.error, .invalidOption, line: line(of: root, field: option.rawValue), mistake)
    }

    private mutating func checkNodeOptions(_ item: Visited) {
        let node = item.node
        if let type = node.fields["back"] {
            let behaviours = TabBackBehavior.allCases.map(\.rawValue)
            if !(node.values["back"]?.stringValue.map(behaviours.contains) ?? false) || type != "string" {
                report(.error, .invalidOption, line: line(of: item, field: "back"),
                       "\(item.label): back must be \(DeclaredValue.either(behaviours)), not \(Self.shown(node.values["back"], type: type))")
            } else if !node.isSwitch {
                report(.error, .invalidOption, line: line(of: item, field: "back"),
                       "\(item.label): back is only for a switch node, where back goes among its children")
            }
        }
        if let type = node.fields["launch"] {
            let modes = LaunchMode.allCases.map(\.rawValue)
            if !(node.values["launch"]?.stringValue.map(modes.contains) ?? false) || type != "string" {
                report(.error, .invalidOption, line: line(of: item, field: "launch"),
                       "\(item.label): launch must be \(DeclaredValue.either(modes)), not \(Self.shown(node.values["launch"], type: type))")
            }
        }
        if let type = node.fields["key"], type != "table", type != "string" || node.values["key"] == .string("") {
            // A list's fields are the declaration's to check when the app loads.
            report(.error, .invalidOption, line: line(of: item, field: "key"),
                   "\(item.label): key must be a context field's name or a list of them, not \(Self.shown(node.values["key"], type: type))")
        }
        if let type = node.fields["floor"] {
            if type != "boolean" {
                report(.error, .invalidOption, line: line(of: item, field: "floor"),
                       "\(item.label): floor must be true or false, not \(Self.shown(node.values["floor"], type: type))")
            } else if node.values["floor"] == .boolean(true), node.isSwitch {
                report(.error, .invalidOption, line: line(of: item, field: "floor"),
                       "\(item.label): floor is for screens (back never leaves one)")
            }
        }
        if let type = node.fields["keep"] {
            if type != "boolean" {
                report(.error, .invalidOption, line: line(of: item, field: "keep"),
                       "\(item.label): keep must be true or false, not \(Self.shown(node.values["keep"], type: type))")
            } else if node.values["keep"] == .boolean(true), !node.isSwitch {
                report(.error, .invalidOption, line: line(of: item, field: "keep"),
                       "\(item.label): keep is for switch nodes (it keeps their children's stacks)")
            }
        }
    }

    /// A value as the script wrote it, or `a table` for what is no plain value.
    private static func shown(_ value: PlainValue?, type: String) -> String {
        value?.description ?? "a \(type)"
    }
}
