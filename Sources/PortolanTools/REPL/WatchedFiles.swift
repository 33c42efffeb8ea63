/// The files `--watch` watches (the app file, every file `portolan.load` ran, every module the app
/// required) and how each was when last seen, to notice an edit.
struct WatchedFiles {
    private var stamps: [String: FileStamp] = [:]

    /// Notes how `files` are now, forgetting any other.
    mutating func note(_ files: [String]) {
        stamps = [:]
        for file in files { stamps[file] = FileStamp(file) }
    }

    /// A file that changed since it was last noted, if any.
    func changedFile() -> String? {
        stamps.first { file, stamp in FileStamp(file) != stamp }?.key
    }
}
