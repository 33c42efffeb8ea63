import CLuaShim

/// Which Lua release this process runs, so that a user can check it against Lua's list of known bugs and
/// vulnerabilities (lua.org/bugs.html).
extension LuaState {
    /// The release of the Lua library linked at run time, such as "Lua 5.4.4": read from the identity string
    /// the library carries (`lua_ident`), since `lua_version` gives only the major and minor numbers (504).
    /// It can differ from ``compiledRelease`` when the system's library was upgraded after the build; it is
    /// ``compiledRelease`` if the identity string is not in the form every 5.4 release has used.
    public static let release: String = linkedRelease(identity: String(cString: cluashim_libraryidentity()))
        ?? compiledRelease

    /// `LUA_RELEASE` of the `lua.h` the shim was compiled against, such as "Lua 5.4.4".
    public static let compiledRelease = String(cString: cluashim_headerrelease())

    /// The release for people to read: ``release``, and ``compiledRelease`` too when it differs (the system's
    /// library upgraded since the build), as in "Lua 5.4.6, built against Lua 5.4.4".
    public static var releaseDescription: String {
        describe(release: release, compiledRelease: compiledRelease)
    }

    static func describe(release: String, compiledRelease: String) -> String {
        release == compiledRelease ? release : "\(release), built against \(compiledRelease)"
    }

    /// The release in `$LuaVersion: Lua 5.4.4  Copyright (C) 1994-2022 Lua.org, PUC-Rio $$LuaAuthors: … $`,
    /// or nil when the text has another form.
    ///
    /// A byte search rather than `firstRange(of:)`: `portolan` reads this at every start-up (its
    /// `--version` line is part of the command's configuration), and the string-processing
    /// searcher's first use cost more than the rest of this function (Benchmarks/README.md, "Start-up").
    static func linkedRelease(identity: String) -> String? {
        let marker = Array("$LuaVersion: ".utf8)
        let bytes = Array(identity.utf8)
        guard let found = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }) else { return nil }
        let rest = String(decoding: bytes[(found + marker.count)...], as: UTF8.self)
        let words = rest.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count >= 2, words[0] == "Lua", isReleaseNumber(words[1]) else { return nil }
        return "Lua \(words[1])"
    }

    /// Dot-separated decimal numbers, at least two of them ("5.4.4").
    private static func isReleaseNumber(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        }
    }
}
