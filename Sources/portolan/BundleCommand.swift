import ArgumentParser
import Lua
import Portolan
import PortolanLua
import PortolanShipping
import PortolanTools

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `portolan bundle`: signed rules bundles (docs/bundles.md). No key, private or public, is ever
/// written to output or to an error: only the public key `keygen` made, once, on purpose.
struct Bundle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Make a signing key, build a signed rules bundle, verify, inspect and install one.",
        subcommands: [
            BundleKeygenCommand.self, BundleBuildCommand.self, BundleVerifyCommand.self, BundleInspectCommand.self,
            BundleInstallCommand.self, BundleRollbackCommand.self,
        ]
    )
}

/// Reads a file for a bundle command, or ends it with status 2 saying which file (never its
/// bytes). A key's file is named by its option only: someone may have passed the key itself.
private func fileBytes(_ path: String, command: String, what: String, named name: String? = nil) throws -> [UInt8] {
    try CommandInput.bytes(of: path, orSay: "portolan bundle \(command): cannot read the \(what) \(name ?? path)")
}

/// The signing key in the file given to `--key`, or the end of `command` with status 2.
func readSigningKey(file path: String, command: String) throws -> BundleSigningKey {
    let keyText = String(decoding: try fileBytes(path, command: command, what: "key file", named: "given to --key"), as: UTF8.self)
    return try readKey({ () throws(BundleError) in try BundleSigningKey(text: keyText) }, command: command, path: "--key")
}

/// Ends a bundle command with status 2 for a key that is not one. The error never repeats the key.
private func readKey<Key>(_ read: () throws(BundleError) -> Key, command: String, path: String) throws -> Key {
    do {
        return try read()
    } catch {
        StandardStreams.errorLine("portolan bundle \(command): \(path): \(error.reason)")
        throw ExitCode(2)
    }
}

/// `--expires-in-days N`: the manifest's `expires`, N days from now, in seconds since 1970.
func expiry(inDays days: Int) throws(BundleError) -> Int {
    guard (1...36_500).contains(days) else { throw .invalidManifest("--expires-in-days is not a number of days from 1 to 36500") }
    return Int(time(nil)) + days * 86_400
}

struct BundleKeygenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make an Ed25519 signing key: the private key to a file (mode 0600), the public key to output.",
        discussion: ExitStatusHelp.paragraph([(0, "the key was written"), (2, "the file exists or cannot be written")])
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("The private key's file; it must not exist.", valueName: "FILE"))
    var output: String

    func run() async throws {
        guard access(output, F_OK) != 0 else {
            StandardStreams.errorLine("portolan bundle keygen: \(output) exists: a key is never overwritten")
            throw ExitCode(2)
        }
        let signingKey = BundleSigningKey()
        do {
            try WholeFile.write(bytes: Array((signingKey.text + "\n").utf8), to: output, fileMode: 0o600)
        } catch {
            StandardStreams.errorLine("portolan bundle keygen: \(error.description)")
            throw ExitCode(2)
        }
        StandardStreams.report(signingKey.publicKey.text)
    }
}

struct BundleBuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a signed bundle of a directory's bundle.json and .lua files.",
        discussion: ExitStatusHelp.paragraph([
            (0, "the bundle was written"), (1, "with --check: the rules failed a stage, and nothing was signed (the reason is printed)"),
            (2, "the directory, the key or the file cannot be read or written"),
        ])
    )

    @Argument(help: "The directory: bundle.json and the rules' .lua files.") var directory: String
    @Option(help: ArgumentHelp("The private key's file (`portolan bundle keygen`).", valueName: "KEY")) var key: String
    @Option(name: .shortAndLong, help: ArgumentHelp("The bundle file to write.", valueName: "FILE")) var output: String
    @Option(help: ArgumentHelp("The bundle may be installed for this many days from now, and no later.", valueName: "DAYS"))
    var expiresInDays: Int?
    @Flag(help: "Run the gate's stages 3 to 5 (load, check, scenarios) on the rules first; sign nothing when one fails.")
    var check = false

    func run() async throws {
        let signingKey = try readSigningKey(file: key, command: "build")
        let bytes: [UInt8]
        do {
            let expires = try expiresInDays.map(expiry(inDays:))
            let source = try BundleSource(directory: directory)
            if check, case .rejected(let stage, let reason) = await BundleGate.checkRules(of: source) {
                StandardStreams.report("not built: the rules fail stage \(stage.rawValue) (\(stage)): \(reason.text)")
                throw ExitCode(1)
            }
            bytes = try source.bundle(signedWith: signingKey, expires: expires)
        } catch let error as BundleError {
            StandardStreams.errorLine("portolan bundle build: \(directory): \(error.reason)")
            throw ExitCode(2)
        }
        do {
            try WholeFile.write(bytes: bytes, to: output)
        } catch {
            StandardStreams.errorLine("portolan bundle build: \(error.description)")
            throw ExitCode(2)
        }
        StandardStreams.report("built \(output): \(bytes.count) bytes")
    }
}

struct BundleVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a bundle's signature with a public key, and every file's SHA-256.",
        discussion: ExitStatusHelp.paragraph([
            (0, "the bundle is signed by the key and whole"), (1, "it is not (the reason is printed)"),
            (2, "the bundle or the key cannot be read, or the key is not one"),
        ])
    )

    @Argument(help: "The bundle file.") var file: String
    @Option(help: ArgumentHelp("The public key (`ed25519:…`), or a file holding it.", valueName: "K")) var publicKey: String

    func run() async throws {
        let key = try BundleKeyText.publicKey(publicKey, command: "verify")
        switch RulesBundle.verified(try fileBytes(file, command: "verify", what: "bundle"), publicKey: key) {
        case .success(let bundle):
            StandardStreams.report("verified: \(bundle.manifest.id) version \(bundle.manifest.version), \(bundle.manifest.files.count) file(s)")
        case .failure(let error):
            StandardStreams.report("rejected: \(error.reason)")
            throw ExitCode(1)
        }
    }
}

/// A public key given to `--public-key`: its text, or a file holding it.
enum BundleKeyText {
    /// The prefix of a public key's text, to tell it from a file's path.
    static let prefix = "ed25519:"

    /// The key, or the end of `command` with status 2; neither the key nor its file's bytes are echoed.
    static func publicKey(_ given: String, command: String) throws -> BundlePublicKey {
        let keyText = given.hasPrefix(prefix)
            ? given : String(decoding: try fileBytes(given, command: command, what: "public key file", named: "given to --public-key"), as: UTF8.self)
        return try readKey({ () throws(BundleError) in try BundlePublicKey(text: keyText) }, command: command, path: "--public-key")
    }
}

struct BundleInspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a bundle's manifest, without judging its signature (use verify for that).",
        discussion: ExitStatusHelp.paragraph([(0, "the manifest was printed"), (2, "the file cannot be read or is not a bundle")])
    )

    @Argument(help: "The bundle file.") var file: String

    func run() async throws {
        switch RulesBundle.read(try fileBytes(file, command: "inspect", what: "bundle")) {
        case .success(let bundle):
            StandardStreams.report(Self.lines(of: bundle.manifest).joined(separator: "\n"))
        case .failure(let error):
            StandardStreams.errorLine("portolan bundle inspect: \(file): \(error.reason)")
            throw ExitCode(2)
        }
    }

    static func lines(of manifest: BundleManifest) -> [String] {
        let list = { (names: [String]) in names.isEmpty ? "(none)" : names.joined(separator: ", ") }
        return [
            "id: \(manifest.id)", "version: \(manifest.version)", "abi: \(manifest.abi) (this portolan: \(RulesABI.current))",
            "entry: \(manifest.entry)", "requires nodes: \(list(manifest.requires.nodes))",
            "requires functions: \(list(manifest.requires.functions))", "requires context: \(list(manifest.requires.contextKeys))",
            "scenarios: \(list(manifest.scenarios))",
            "canary: \(manifest.canary.routes) routes, at most \(manifest.canary.maximumFailureRatio) failing",
            "key: \(manifest.key ?? "(not named: any key the app trusts)")",
            "expires: \(manifest.expires.map { "\($0) seconds since 1970 (UTC)" } ?? "never")",
            "files:",
        ] + manifest.files.map { "  \($0.path)  \($0.byteCount) bytes  sha256:\($0.sha256)" }
            + ["signature: not checked (portolan bundle verify FILE --public-key K)"]
    }
}
