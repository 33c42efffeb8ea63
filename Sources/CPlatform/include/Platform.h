// Which paths this build takes where a platform's interfaces differ (docs/embedding.md, "Platforms").
//
// Every use of an interface only Linux has sits behind PORTOLAN_LINUX_PATHS, beside a portable path that
// uses only what Darwin also has. The Linux path is an optimisation chosen at build time; a build with
// PORTOLAN_PORTABLE defined (scripts/test.sh's second run: -Xcc -DPORTOLAN_PORTABLE and -Xswiftc
// -DPORTOLAN_PORTABLE) takes the portable paths on Linux too, so the paths an Apple build would take are
// tested here. scripts/linux-only.py lists the seams and fails on a Linux-only use outside them.
#ifndef CPLATFORM_PLATFORM_H
#define CPLATFORM_PLATFORM_H

#if defined(__linux__) && !defined(PORTOLAN_PORTABLE)
#define PORTOLAN_LINUX_PATHS 1
#else
#define PORTOLAN_LINUX_PATHS 0
#endif

/// "linux" or "portable": the paths the C code of this build takes, for a test to compare with what the
/// Swift code was built with (the two take the setting by separate flags).
const char *cplatform_paths(void);

#endif
