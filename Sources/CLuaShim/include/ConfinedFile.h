#ifndef PORTOLAN_CONFINEDFILE_H
#define PORTOLAN_CONFINEDFILE_H

// The one way a script's own files are read: `require`'s modules and `portolan.load`'s files. A path is
// opened beneath a directory descriptor, following no symbolic link and never leaving the directory, and
// what was opened is then judged by its descriptor (fstat): a regular file, with one name, small enough.
// No path string is ever compared, so there is no check to race and no Unicode form to confuse. Plain C
// that does not touch Lua: the sandbox's require (SandboxRequire.c) and Swift (LuaState.chunkBytes) call it.

#include <stddef.h>

/// The largest script file read: far more than any script, far less than a state's memory, so a script
/// cannot make the host hold a huge file (`portolan.load` of a disk image). LuaState.maximumChunkFileSize.
#define CONFINEDFILE_MAXIMUM_SIZE 16777216

/// How opening or reading a script file ended. CONFINEDFILE_MISSING means that nothing of that name is
/// inside the directory; every other refusal is about what is inside, never about what is outside.
enum {
    CONFINEDFILE_OK = 0,
    CONFINEDFILE_MISSING = 1,
    CONFINEDFILE_SYMBOLIC_LINK = 2,
    CONFINEDFILE_LEAVES_DIRECTORY = 3,
    CONFINEDFILE_NOT_REGULAR = 4,
    CONFINEDFILE_HARD_LINK = 5,
    CONFINEDFILE_TOO_LARGE = 6,
    CONFINEDFILE_UNREADABLE = 7,
    CONFINEDFILE_OUT_OF_MEMORY = 8,
    CONFINEDFILE_NOT_FOLDER = 9,
    CONFINEDFILE_TOO_DEEP = 10,
    CONFINEDFILE_TOO_MANY = 11,
};

/// How each path component is opened: by openat2 where the kernel has it (Linux 5.6), else one component
/// at a time. CONFINEDFILE_EACH_COMPONENT is the fallback, chosen by tests to check it on any kernel.
enum {
    CONFINEDFILE_BEST_WAY = 0,
    CONFINEDFILE_EACH_COMPONENT = 1,
};

/// The words for an outcome, as error messages end ("not a regular file").
const char *confinedfile_reason(int outcome);

/// Opens `path` (relative, '/'-separated) beneath `directory` for reading, into `*descriptor` (close it).
/// Refuses an absolute path or a `..` component, a symbolic link anywhere on the way, anything but a regular
/// file (a FIFO does not block), a file with more than one name (a hard link could be a file from outside),
/// and a file larger than CONFINEDFILE_MAXIMUM_SIZE. `directory` itself is the host's, and taken as named.
int confinedfile_open(const char *directory, const char *path, int way, int *descriptor);

/// The bytes of a script file, in memory of `malloc`: free `bytes` with `free` (also on failure, harmless).
typedef struct {
    char *bytes;
    size_t count;
} confinedfile_text;

/// Reads an open file's text as Lua compiles it: a regular file, at most CONFINEDFILE_MAXIMUM_SIZE bytes
/// (checked on what is read too, for files whose size stat does not tell), and a first line starting with `#`
/// (a shebang) emptied, keeping line numbers. Does not close `descriptor`.
int confinedfile_read(int descriptor, confinedfile_text *text);

/// confinedfile_open, then confinedfile_read, then close.
int confinedfile_readbeneath(const char *directory, const char *path, int way, confinedfile_text *text);

/// Reads a file a person named (an app file on the command line, a bundle, a key) as a script file is read:
/// the folders on the way are theirs and taken as named, but the file itself is opened without following a
/// link and without blocking, and must be a regular file with one name, of at most CONFINEDFILE_MAXIMUM_SIZE.
/// So a link a pull request turned the file into, or a FIFO left in its place, is refused, never read.
int confinedfile_readnamed(const char *path, confinedfile_text *text);

#endif
