/// The files `--watch` watches (the app file, every file `portolan.load` ran, every module the app
/// required; with the reload gate, `bundle.json` and its scenarios) and how each was when last
/// seen, to notice an edit.
struct WatchedFiles {
    private var stamps: [String: FileStamp] = [:]

    /// Notes how `files` are now, forgetting any other.
    mutating func note(_ files: [String]) {
        stamps = [:]
        for file in files { stamps[file] = FileStamp(file) }
    }

    /// Notes `files`, keeping how each already noted was then (an edit since is still to be seen),
    /// and forgetting any other.
    mutating func keepNoting(_ files: [String]) {
        var kept: [String: FileStamp] = [:]
        for file in files { kept[file] = stamps[file] ?? FileStamp(file) }
        stamps = kept
    }

    /// A file that changed since it was last noted, if any.
    func changedFile() -> String? {
        stamps.first { file, stamp in FileStamp(file) != stamp }?.key
    }
}
