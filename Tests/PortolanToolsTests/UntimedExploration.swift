/// The time limit, in seconds, of an exploration a test needs whole: one it compares with another
/// run or a merge, or whose every planted fault it must find. No slow machine reaches it: under
/// ThreadSanitizer, exploring the fault fixture once takes longer than the default 300 s, and a
/// run cut by time is another report.
let untimedExploration: Double = 1e9
