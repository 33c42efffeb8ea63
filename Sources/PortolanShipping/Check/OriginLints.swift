import Portolan
import PortolanLua

// Lints of the root's origins: `http` or `https` listed in `schemes`. A listed scheme admits every
// URL of it, so `schemes = { "https" }` alone lets links from any host route into the app, which is
// not what listing it usually means ("my web links"); with `hosts` given, the hosts bound the web
// schemes (URLOrigins), and listing them in `schemes` only misleads the reader.

extension AppLinter {
    mutating func checkOrigins() {
        guard let root = visited.first else { return }
        let line = line(of: root, field: RootOption.schemes.rawValue)
        for scheme in app.options.schemes where URLOrigins.webSchemes.contains(scheme.lowercased()) {
            if app.options.hosts.isEmpty {
                report(.warning, .webScheme, line: line,
                       "schemes lists '\(scheme)', which admits \(scheme) links from every host "
                       + "(\(scheme)://any.example/… routes as /…); list the web hosts the app serves in hosts instead")
            } else {
                report(.warning, .webScheme, line: line,
                       "schemes lists '\(scheme)', which adds nothing: with hosts given, \(scheme) links are accepted "
                       + "from those hosts only (\(app.options.hosts.map { "'\($0)'" }.joined(separator: ", "))); remove it from schemes")
            }
        }
    }
}
