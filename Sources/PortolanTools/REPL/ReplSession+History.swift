import Portolan

/// `:history`: the router's finished routes (`portolan.history()`), numbered, with what each did.
extension ReplSession {
    func showHistory() async {
        let records = await host.router?.history ?? []
        guard !records.isEmpty else {
            say("(no routes yet)", .note)
            return
        }
        let width = String(records.count).count
        let pad = String(repeating: " ", count: width + 2)
        for (index, record) in records.enumerated() {
            let number = String(index + 1)
            write(String(repeating: " ", count: width - number.count) + number + "  " + record.requested.requestText(failure: record.failure))
            if record.settled != record.requested {
                say(pad + "redirected to \(Excerpt.of(record.settled.description))", .note)
            }
            for instruction in record.executed { say(pad + "  \(instruction)", .instruction) }
            if let failure = record.failure {
                say(pad + "failed: \(failure)", .error)
                for instruction in failure.rolledBack { say(pad + "  rolled back: \(instruction)", .instruction) }
            } else if record.executed.isEmpty {
                say(pad + "(nothing to do)", .note)
            }
        }
    }
}
