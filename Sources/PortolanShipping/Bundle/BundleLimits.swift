/// The bounds of a rules bundle, checked as it is read, so that any bytes cost a bounded amount
/// to refuse and no count or length in a file makes the reader allocate more than the file holds.
public enum BundleLimits {
    /// The most bytes a bundle file may have: rules are text, and 16 MiB is far more than an app's.
    public static let maximumBytes = 16 << 20
    /// The most bytes of the manifest.
    public static let maximumManifestBytes = 256 << 10
    /// The most files a bundle may hold.
    public static let maximumFiles = 256
    /// The most bytes of one file.
    public static let maximumFileBytes = 4 << 20
    /// The most bytes of a file's path, of an id, and of one name in `requires`.
    public static let maximumNameBytes = 200
    /// The most names in each list of `requires`, and the most scenario files.
    public static let maximumListEntries = 1024
    /// The most routes a canary may watch.
    public static let maximumCanaryRoutes = 10_000
    /// The latest `expires` a manifest may give: the year 9999, in seconds since 1970.
    public static let latestExpiry = 253_402_300_799
}
