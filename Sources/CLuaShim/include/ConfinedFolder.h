#ifndef PORTOLAN_CONFINEDFOLDER_H
#define PORTOLAN_CONFINEDFOLDER_H

// The one way the tools collect a folder's files (a bundle's sources, a folder of scenarios, the scenarios
// beside an app): a walk beneath the folder's descriptor that follows no symbolic link and opens nothing but
// folders, so a link, a link loop, a FIFO or a device is named, never entered, read or waited on. The files
// it lists are then read one at a time by confinedfile_readbeneath, which judges each again by what it
// opened. Plain C that does not touch Lua, beside ConfinedFile.h, whose outcomes it shares.

#include <stddef.h>

/// Folders below the one walked that are still entered: a bundle's paths go no deeper. A deeper folder is
/// listed as refused (CONFINEDFILE_TOO_DEEP), never silently left out.
#define CONFINEDFOLDER_MAXIMUM_DEPTH 8
/// The most entries one walk lists, so that a folder of a million files cannot hold the tool's memory.
#define CONFINEDFOLDER_MAXIMUM_ENTRIES 100000

/// One thing the walk found: a file to read (`outcome` CONFINEDFILE_OK), or one it refuses and why. A
/// folder's path ends with '/'.
typedef struct {
    char *path;
    int outcome;
} confinedfolder_entry;

/// What a walk found, in the order the folders listed it (sort it). Free it with confinedfolder_free.
typedef struct {
    confinedfolder_entry *entries;
    size_t count;
    size_t capacity;
} confinedfolder_listing;

/// Walks `directory`, which must itself be a folder and not a symbolic link (the last component of its
/// name is not followed; the ones before it are the caller's, taken as named). Names starting with '.' are
/// skipped. Listed: every regular file with one name whose name ends with `suffix`; refused: such a name
/// that is anything else (a hard link, a FIFO, a socket, a device: CONFINEDFILE_HARD_LINK or _NOT_REGULAR),
/// a symbolic link named so or leading to a folder (_SYMBOLIC_LINK), and a folder past the depth limit
/// (_TOO_DEEP). Returns CONFINEDFILE_OK, or why nothing could be walked: _MISSING, _SYMBOLIC_LINK,
/// _NOT_FOLDER, _TOO_MANY, _OUT_OF_MEMORY or _UNREADABLE (the listing then holds what was found so far).
int confinedfolder_list(const char *directory, const char *suffix, confinedfolder_listing *listing);

void confinedfolder_free(confinedfolder_listing *listing);

/// Opens the folder an output file is written into (a coverage page, a repro, a key), for openat and
/// renameat: no symbolic link is followed in any component of a relative path (a checkout can plant links
/// there, `--repro-dir out` with `out -> ~/.ssh`), nor in the last component of an absolute one, whose
/// folders above are the person's, taken as named. With `create`, a missing last component is made (0755)
/// beneath its opened parent. Returns the descriptor, or -1 with errno set: ELOOP for a link on the way.
int confinedfolder_openoutput(const char *directory, int create);

#endif
