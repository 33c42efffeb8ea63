// A folder's files collected beneath its descriptor (ConfinedFolder.h). Why descriptors: a walk by path
// strings follows whatever a name resolves to at the moment it is used, so a link planted in the folder
// (`rules/k.lua -> ../signing.key`, `sub -> ..`) takes the walk outside it, a link loop never ends, and a
// FIFO blocks the first read. Here every folder is opened with O_NOFOLLOW beneath the one above it, every
// other entry is only looked at (fstatat without following), and no file is opened at all.
#include "ConfinedFolder.h"
#include "ConfinedFile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// O_NONBLOCK too: O_DIRECTORY already refuses a FIFO before it could block, and this says so twice.
static const int FOLDER_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;

/// Adds `path` (followed by '/' for a folder) with its outcome.
static int add(confinedfolder_listing *listing, const char *path, int isFolder, int outcome) {
    if (listing->count >= CONFINEDFOLDER_MAXIMUM_ENTRIES) return CONFINEDFILE_TOO_MANY;
    if (listing->count == listing->capacity) {
        size_t capacity = listing->capacity == 0 ? 64 : listing->capacity * 2;
        confinedfolder_entry *grown = realloc(listing->entries, capacity * sizeof *grown);
        if (grown == NULL) return CONFINEDFILE_OUT_OF_MEMORY;
        listing->entries = grown;
        listing->capacity = capacity;
    }
    size_t length = strlen(path);
    char *copy = malloc(length + 2);
    if (copy == NULL) return CONFINEDFILE_OUT_OF_MEMORY;
    memcpy(copy, path, length);
    if (isFolder) copy[length++] = '/';
    copy[length] = '\0';
    listing->entries[listing->count++] = (confinedfolder_entry){copy, outcome};
    return CONFINEDFILE_OK;
}

static int hasSuffix(const char *name, size_t length, const char *suffix) {
    size_t suffixLength = strlen(suffix);
    return length > suffixLength && memcmp(name + length - suffixLength, suffix, suffixLength) == 0;
}

static int walk(int folder, char *path, size_t length, int depth, const char *suffix, confinedfolder_listing *listing);

/// Enters the folder `name` of `folder`, whose path is `path` (of `length` bytes), if the depth allows.
static int enter(int folder, const char *name, char *path, size_t length, int depth, const char *suffix,
                 confinedfolder_listing *listing) {
    if (depth >= CONFINEDFOLDER_MAXIMUM_DEPTH) return add(listing, path, 1, CONFINEDFILE_TOO_DEEP);
    int inner;
    do inner = openat(folder, name, FOLDER_FLAGS);
    while (inner < 0 && errno == EINTR);
    if (inner < 0) {
        // It was a folder when looked at: ELOOP or ENOTDIR means that a link took its place since.
        if (errno == ENOENT) return CONFINEDFILE_OK;
        int outcome = errno == ELOOP || errno == ENOTDIR ? CONFINEDFILE_SYMBOLIC_LINK : CONFINEDFILE_UNREADABLE;
        return add(listing, path, 1, outcome);
    }
    path[length] = '/';
    path[length + 1] = '\0';
    int outcome = walk(inner, path, length + 1, depth + 1, suffix, listing);
    close(inner);
    return outcome;
}

/// What to do with the entry `name` of `folder`, its path in `path` (of `length` bytes).
static int visit(int folder, const char *name, char *path, size_t length, int depth, const char *suffix,
                 confinedfolder_listing *listing) {
    struct stat status;
    if (fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) != 0) return CONFINEDFILE_OK;   // gone since listed
    size_t nameLength = strlen(name);
    int named = hasSuffix(name, nameLength, suffix);
    if (S_ISDIR(status.st_mode)) return enter(folder, name, path, length, depth, suffix, listing);
    if (S_ISLNK(status.st_mode)) {
        // Where it leads is only looked at, to name a link to a folder, whose files the walk would miss.
        struct stat target;
        int toFolder = fstatat(folder, name, &target, 0) == 0 && S_ISDIR(target.st_mode);
        return named || toFolder ? add(listing, path, toFolder, CONFINEDFILE_SYMBOLIC_LINK) : CONFINEDFILE_OK;
    }
    if (!named) return CONFINEDFILE_OK;
    if (!S_ISREG(status.st_mode)) return add(listing, path, 0, CONFINEDFILE_NOT_REGULAR);
    return add(listing, path, 0, status.st_nlink > 1 ? CONFINEDFILE_HARD_LINK : CONFINEDFILE_OK);
}

/// Lists `folder`, whose path (empty, or ending with '/') is the `length` bytes of `path`.
static int walk(int folder, char *path, size_t length, int depth, const char *suffix, confinedfolder_listing *listing) {
    int listed = dup(folder);   // closedir closes what fdopendir was given
    if (listed < 0) return CONFINEDFILE_UNREADABLE;
    DIR *stream = fdopendir(listed);
    if (stream == NULL) {
        close(listed);
        return CONFINEDFILE_UNREADABLE;
    }
    int outcome = CONFINEDFILE_OK;
    for (;;) {
        errno = 0;
        struct dirent *item = readdir(stream);
        if (item == NULL) {
            if (errno != 0) outcome = CONFINEDFILE_UNREADABLE;
            break;
        }
        const char *name = item->d_name;
        size_t nameLength = strlen(name);
        // A name is at most 255 bytes and the depth at most 8, so the path fits PATH_MAX with room for '/'.
        if (name[0] == '.' || length + nameLength + 2 > PATH_MAX) continue;
        memcpy(path + length, name, nameLength + 1);
        outcome = visit(folder, name, path, length + nameLength, depth, suffix, listing);
        if (outcome != CONFINEDFILE_OK) break;
    }
    path[length] = '\0';
    closedir(stream);
    return outcome;
}

int confinedfolder_list(const char *directory, const char *suffix, confinedfolder_listing *listing) {
    listing->entries = NULL;
    listing->count = 0;
    listing->capacity = 0;
    // A trailing '/' would make the kernel follow a link in the last component: drop it ("/" stays).
    char named[PATH_MAX];
    size_t length = strlen(directory);
    if (length == 0 || length >= sizeof named) return CONFINEDFILE_MISSING;
    memcpy(named, directory, length + 1);
    while (length > 1 && named[length - 1] == '/') named[--length] = '\0';
    int root;
    do root = open(named, FOLDER_FLAGS);
    while (root < 0 && errno == EINTR);
    if (root < 0) {
        int error = errno;
        struct stat status;
        if (lstat(named, &status) != 0) return error == ENOENT || error == ENOTDIR ? CONFINEDFILE_MISSING : CONFINEDFILE_UNREADABLE;
        if (S_ISLNK(status.st_mode)) return CONFINEDFILE_SYMBOLIC_LINK;
        return S_ISDIR(status.st_mode) ? CONFINEDFILE_UNREADABLE : CONFINEDFILE_NOT_FOLDER;
    }
    char path[PATH_MAX] = "";
    int outcome = walk(root, path, 0, 0, suffix, listing);
    close(root);
    return outcome;
}

void confinedfolder_free(confinedfolder_listing *listing) {
    for (size_t index = 0; index < listing->count; index++) free(listing->entries[index].path);
    free(listing->entries);
    listing->entries = NULL;
    listing->count = 0;
    listing->capacity = 0;
}

/// openat of the folder `name` beneath `at` without following a link; a link named makes errno ELOOP
/// whichever errno the kernel chose (ENOTDIR, with O_DIRECTORY). With `create`, a missing one is made.
static int openFolderBeneath(int at, const char *name, int create) {
    int folder;
    do folder = openat(at, name, FOLDER_FLAGS);
    while (folder < 0 && errno == EINTR);
    if (folder < 0 && errno == ENOENT && create && mkdirat(at, name, 0755) == 0) {
        do folder = openat(at, name, FOLDER_FLAGS);
        while (folder < 0 && errno == EINTR);
    }
    if (folder < 0 && errno == ENOTDIR) {
        struct stat status;
        if (fstatat(at, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(status.st_mode)) errno = ELOOP;
        else errno = ENOTDIR;
    }
    return folder;
}

int confinedfolder_openoutput(const char *directory, int create) {
    char path[PATH_MAX];
    size_t length = strlen(directory);
    if (length >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(path, directory, length + 1);
    while (length > 1 && path[length - 1] == '/') path[--length] = '\0';
    if (length == 0 || strcmp(path, "/") == 0) return open(length == 0 ? "." : "/", FOLDER_FLAGS);
    int at = AT_FDCWD;
    char *component = path;
    if (path[0] == '/') {
        // Absolute: the folders above the last are taken as named.
        char *slash = strrchr(path, '/');
        *slash = '\0';
        at = open(slash == path ? "/" : path, FOLDER_FLAGS & ~O_NOFOLLOW);
        if (at < 0) return -1;
        component = slash + 1;
    }
    for (;;) {
        char *slash = strchr(component, '/');
        if (slash != NULL) *slash = '\0';
        if (component[0] == '\0' && slash != NULL) {   // "a//b": the empty name between is no folder
            component = slash + 1;
            continue;
        }
        int next = openFolderBeneath(at, component, create && slash == NULL);
        int error = errno;
        if (at != AT_FDCWD) close(at);
        if (next < 0) {
            errno = error;
            return -1;
        }
        if (slash == NULL) return next;
        at = next;
        component = slash + 1;
    }
}
