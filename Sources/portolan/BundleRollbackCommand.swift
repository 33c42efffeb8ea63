import ArgumentParser
import Portolan
import PortolanLua
import PortolanShipping
import PortolanTools

/// `portolan bundle rollback OLD.bundle --version N --key KEY -o FILE`: a rollback as a release,
/// in one command. The store's floor refuses an old version offered again, by design (a replay
/// is an attack), so going back is shipping the old rules as a new version: the same files and
/// manifest, under version N, signed afresh, with no expiry unless one is given
/// (docs/bundles.md, "Rolling back").
struct BundleRollbackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract: "Re-issue an earlier bundle's rules as a new version, signed afresh: a rollback devices take.",
        discussion: ExitStatusHelp.paragraph([
            (0, "the new bundle was written"),
            (1, "the earlier bundle is not signed by a trusted key, or the version is not above its own (the reason is printed)"),
            (2, "a file or the key cannot be read or written"),
        ])
    )

    @Argument(help: "The earlier bundle, whose rules are to serve again.") var file: String
    @Option(help: ArgumentHelp("The new version: above every version devices have installed.", valueName: "N")) var version: Int
    @Option(help: ArgumentHelp("The private key's file (`portolan bundle keygen`).", valueName: "KEY")) var key: String
    @Option(help: ArgumentHelp(
        "A public key the earlier bundle may be signed by (repeat for more); by default the signing key's own.", valueName: "K"))
    var publicKey: [String] = []
    @Option(name: .shortAndLong, help: ArgumentHelp("The bundle file to write.", valueName: "FILE")) var output: String
    @Option(help: ArgumentHelp("The new bundle may be installed for this many days from now; the earlier expiry goes.", valueName: "DAYS"))
    var expiresInDays: Int?

    func run() async throws {
        let signingKey = try readSigningKey(file: key, command: "rollback")
        let trusted = publicKey.isEmpty ? [signingKey.publicKey] : try publicKey.map { try BundleKeyText.publicKey($0, command: "rollback") }
        let bytes = try CommandInput.bytes(of: file, orSay: "portolan bundle rollback: cannot read the bundle \(file)")
        let earlier: RulesBundle
        switch RulesBundle.verified(bytes, trusting: trusted) {
        case .success(let bundle): earlier = bundle
        case .failure(let error):
            StandardStreams.report("not re-issued: \(file): \(error.reason)")
            throw ExitCode(1)
        }
        guard version > earlier.manifest.version else {
            StandardStreams.report("not re-issued: version \(version) is not above the earlier bundle's \(earlier.manifest.version)")
            throw ExitCode(1)
        }
        var manifest = earlier.manifest
        manifest.version = version
        do {
            manifest.expires = try expiresInDays.map(expiry(inDays:))
            let reissued = try RulesBundle.encode(manifest, files: earlier.files, signingKey: signingKey)
            try WholeFile.write(bytes: reissued, to: output)
            StandardStreams.report("built \(output): \(manifest.id) version \(version), the rules of version \(earlier.manifest.version)")
        } catch let error as BundleError {
            StandardStreams.errorLine("portolan bundle rollback: \(error.reason)")
            throw ExitCode(2)
        } catch {
            StandardStreams.errorLine("portolan bundle rollback: \(error)")
            throw ExitCode(2)
        }
    }
}
