// Script files opened beneath a directory descriptor (ConfinedFile.h). Why descriptors and not paths: a
// path checked (realpath, then a prefix comparison) and then opened can be swapped for a link in between,
// a prefix comparison of Unicode strings can call two different directories equal, and a hard link passes
// any path check. Here the kernel resolves each component with no link followed, and the verdict is taken
// from the descriptor of what was opened.
//
// Two ways (Platform.h): the Linux path asks the kernel to resolve the whole path beneath the directory
// (openat2), and falls back to the portable way where the kernel lacks it; the portable way, the only one
// on Darwin, opens one component at a time with O_NOFOLLOW. Both are as strict; the second is slower.
#include "Platform.h"
#if PORTOLAN_LINUX_PATHS
#define _GNU_SOURCE   // O_PATH
#endif
#include "ConfinedFile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if PORTOLAN_LINUX_PATHS
#include <linux/openat2.h>
#include <sys/syscall.h>
#endif

#if PORTOLAN_LINUX_PATHS
/// A directory opened only to resolve names beneath it: O_PATH needs no read permission on it.
static const int DIRECTORY_FLAGS = O_PATH | O_DIRECTORY | O_CLOEXEC;
#else
static const int DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
#endif

const char *confinedfile_reason(int outcome) {
    switch (outcome) {
    case CONFINEDFILE_OK: return "read";
    case CONFINEDFILE_MISSING: return "no file";
    case CONFINEDFILE_SYMBOLIC_LINK: return "a symbolic link on the way, and scripts follow none";
    case CONFINEDFILE_LEAVES_DIRECTORY: return "leaves the directory";
    case CONFINEDFILE_NOT_REGULAR: return "not a regular file";
    case CONFINEDFILE_HARD_LINK:
        return "a hard link (a file with more than one name), which could be a file from outside the directory";
    case CONFINEDFILE_TOO_LARGE: return "larger than 16 MiB, the most a script may be";
    case CONFINEDFILE_OUT_OF_MEMORY: return "not enough memory to read it";
    case CONFINEDFILE_NOT_FOLDER: return "not a folder";
    case CONFINEDFILE_TOO_DEEP: return "deeper than 8 folders, the most a folder walk goes";
    case CONFINEDFILE_TOO_MANY: return "more than 100000 entries, the most a folder walk lists";
    default: return "cannot be read";
    }
}

/// The outcome an open's errno means. ELOOP: a link where no link may be followed; EXDEV: RESOLVE_BENEATH
/// saw the walk leave; ENOTDIR: a file where a directory was needed, so nothing of that name is inside.
static int outcomeOfErrno(int error) {
    switch (error) {
    case ENOENT: case ENOTDIR: case ENAMETOOLONG: return CONFINEDFILE_MISSING;
    case ELOOP: return CONFINEDFILE_SYMBOLIC_LINK;
    case EXDEV: return CONFINEDFILE_LEAVES_DIRECTORY;
    case ENOMEM: return CONFINEDFILE_OUT_OF_MEMORY;
    default: return CONFINEDFILE_UNREADABLE;
    }
}

/// openat with O_NOFOLLOW reports a link as ELOOP only for the last component of a plain open; with O_PATH or
/// O_DIRECTORY it may say ENOTDIR. Asks again, without following, so that a link is named a link.
static int outcomeOfFailedOpen(int at, const char *name, int error) {
    struct stat status;
    if ((error == ENOTDIR || error == ELOOP) && fstatat(at, name, &status, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISLNK(status.st_mode)) {
        return CONFINEDFILE_SYMBOLIC_LINK;
    }
    return outcomeOfErrno(error);
}

static const int FINAL_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;

/// Where the component starting at `p` ends: its '/' or the path's terminating NUL.
static const char *componentEnd(const char *p) {
    while (*p != '\0' && *p != '/') p++;
    return p;
}

/// Whether `path` stays lexically inside: not absolute, no `..` component. Both ways refuse these before
/// the kernel sees them, so that the message is the same whatever the kernel.
static int leavesLexically(const char *path) {
    if (path[0] == '/') return 1;
    for (const char *p = path; *p != '\0';) {
        const char *end = componentEnd(p);
        if (end - p == 2 && p[0] == '.' && p[1] == '.') return 1;
        p = *end == '/' ? end + 1 : end;
    }
    return 0;
}

/// openat2 with the whole path resolved beneath `root`: -1 with errno ENOSYS where the kernel lacks it, and
/// always on the portable path.
static int openBeneath(int root, const char *path) {
#if !PORTOLAN_LINUX_PATHS
    (void)root;
    (void)path;
    errno = ENOSYS;
    return -1;
#else
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)FINAL_FLAGS;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long result;
    do result = syscall(SYS_openat2, root, path, &how, sizeof how);
    while (result < 0 && errno == EINTR);
    return (int)result;
#endif
}

/// The fallback: each directory opened with O_NOFOLLOW | O_DIRECTORY beneath the previous one, the last
/// component with O_NOFOLLOW | O_NONBLOCK. `.` and empty components stay where they are.
static int openEachComponent(int root, const char *path, int *descriptor) {
    char component[256];
    int at = root;
    const char *p = path;
    for (;;) {
        const char *end = componentEnd(p);
        size_t length = (size_t)(end - p);
        if (length >= sizeof component) {
            if (at != root) close(at);
            return CONFINEDFILE_MISSING;   // no file system has a longer name
        }
        memcpy(component, p, length);
        component[length] = '\0';
        int last = *end == '\0';
        if (!last && (length == 0 || strcmp(component, ".") == 0)) {
            p = end + 1;
            continue;
        }
        int flags = last ? FINAL_FLAGS : DIRECTORY_FLAGS | O_NOFOLLOW;
        int next;
        do next = openat(at, length == 0 ? "." : component, flags);
        while (next < 0 && errno == EINTR);
        int outcome = next < 0 ? outcomeOfFailedOpen(at, component, errno) : CONFINEDFILE_OK;
        if (at != root) close(at);
        if (outcome != CONFINEDFILE_OK) return outcome;
        if (last) {
            *descriptor = next;
            return CONFINEDFILE_OK;
        }
        at = next;
        p = end + 1;
    }
}

/// The verdict on what was opened: what the descriptor is, not what a path said.
static int judgeOpened(int descriptor) {
    struct stat status;
    if (fstat(descriptor, &status) != 0) return CONFINEDFILE_UNREADABLE;
    if (!S_ISREG(status.st_mode)) return CONFINEDFILE_NOT_REGULAR;
    if (status.st_nlink == 0) return CONFINEDFILE_MISSING;   // removed since it was opened
    if (status.st_nlink > 1) return CONFINEDFILE_HARD_LINK;
    if (status.st_size > CONFINEDFILE_MAXIMUM_SIZE) return CONFINEDFILE_TOO_LARGE;
    return CONFINEDFILE_OK;
}

int confinedfile_open(const char *directory, const char *path, int way, int *descriptor) {
    *descriptor = -1;
    if (path[0] == '\0') return CONFINEDFILE_MISSING;
    if (leavesLexically(path)) return CONFINEDFILE_LEAVES_DIRECTORY;
    int root = open(directory, DIRECTORY_FLAGS);
    if (root < 0) return CONFINEDFILE_MISSING;   // the host's directory: nothing in it, then
    int opened = -1;
    int outcome = CONFINEDFILE_OK;
    if (way == CONFINEDFILE_BEST_WAY) {
        opened = openBeneath(root, path);
        // ENOSYS: a kernel before 5.6. EPERM: a seccomp filter (some container runtimes) that refuses system
        // calls it does not know. The fallback is as strict, only slower.
        if (opened < 0 && errno != ENOSYS && errno != EPERM) outcome = outcomeOfErrno(errno);
    }
    if (opened < 0 && outcome == CONFINEDFILE_OK) outcome = openEachComponent(root, path, &opened);
    close(root);
    if (outcome == CONFINEDFILE_OK) outcome = judgeOpened(opened);
    if (outcome != CONFINEDFILE_OK) {
        if (opened >= 0) close(opened);
        return outcome;
    }
    *descriptor = opened;
    return CONFINEDFILE_OK;
}

/// Empties a first line starting with `#`, keeping its newline so that line numbers stay.
static void emptyShebang(confinedfile_text *text) {
    if (text->count == 0 || text->bytes[0] != '#') return;
    char *newline = memchr(text->bytes, '\n', text->count);
    size_t skipped = newline == NULL ? text->count : (size_t)(newline - text->bytes);
    memmove(text->bytes, text->bytes + skipped, text->count - skipped);
    text->count -= skipped;
}

int confinedfile_read(int descriptor, confinedfile_text *text) {
    text->bytes = NULL;
    text->count = 0;
    struct stat status;
    if (fstat(descriptor, &status) != 0) return CONFINEDFILE_UNREADABLE;
    if (!S_ISREG(status.st_mode)) return CONFINEDFILE_NOT_REGULAR;
    if (status.st_size > CONFINEDFILE_MAXIMUM_SIZE) return CONFINEDFILE_TOO_LARGE;
    // One byte past the limit: a file that grew since, or whose size stat does not tell, is caught too.
    size_t capacity = (size_t)status.st_size + 1;
    if (capacity < 4096) capacity = 4096;
    for (;;) {
        char *grown = realloc(text->bytes, capacity);
        if (grown == NULL) return CONFINEDFILE_OUT_OF_MEMORY;
        text->bytes = grown;
        while (text->count < capacity) {
            ssize_t count = read(descriptor, text->bytes + text->count, capacity - text->count);
            if (count < 0 && errno == EINTR) continue;
            if (count < 0) return CONFINEDFILE_UNREADABLE;
            if (count == 0) {
                emptyShebang(text);
                return CONFINEDFILE_OK;
            }
            text->count += (size_t)count;
            if (text->count > CONFINEDFILE_MAXIMUM_SIZE) return CONFINEDFILE_TOO_LARGE;
        }
        capacity = capacity * 2 > CONFINEDFILE_MAXIMUM_SIZE + 1 ? CONFINEDFILE_MAXIMUM_SIZE + 1 : capacity * 2;
    }
}

int confinedfile_readbeneath(const char *directory, const char *path, int way, confinedfile_text *text) {
    text->bytes = NULL;
    text->count = 0;
    int descriptor;
    int outcome = confinedfile_open(directory, path, way, &descriptor);
    if (outcome != CONFINEDFILE_OK) return outcome;
    outcome = confinedfile_read(descriptor, text);
    close(descriptor);
    return outcome;
}

int confinedfile_readnamed(const char *path, confinedfile_text *text) {
    text->bytes = NULL;
    text->count = 0;
    if (path[0] == '\0') return CONFINEDFILE_MISSING;
    int descriptor;
    do descriptor = open(path, FINAL_FLAGS);
    while (descriptor < 0 && errno == EINTR);
    if (descriptor < 0) return outcomeOfErrno(errno);   // ELOOP: the file named is a link
    int outcome = judgeOpened(descriptor);
    if (outcome == CONFINEDFILE_OK) outcome = confinedfile_read(descriptor, text);
    close(descriptor);
    return outcome;
}
