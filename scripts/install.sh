#!/usr/bin/env bash
# Builds release binaries of `portolan` and of its live inspector's server, `portolan-inspector`,
# and installs them, with the man page.
#
#   bash scripts/install.sh [PREFIX]
#
# PREFIX defaults to /usr/local as root and to $HOME/.local otherwise (no sudo needed; add
# $HOME/.local/bin to PATH if it is not there). It installs
#
#   PREFIX/bin/portolan                   the binary, with the Swift standard library, Foundation
#                                         Essentials, Dispatch and libstdc++ linked in statically:
#                                         it needs no Swift toolchain at run time, only Debian's
#                                         liblua5.4, libedit and the C runtime, which stay dynamic
#   PREFIX/bin/portolan-inspector         the server of `portolan repl --inspect`, which the REPL
#                                         starts from its own directory; linked the same way, and
#                                         with Foundation's networking, whose libcurl stays dynamic
#   PREFIX/share/man/man1/portolan.1      its man page, generated from the command's own help by
#                                         swift-argument-parser's generate-manual plugin
#
# The release build goes to its own scratch path, .build-release, so that it never disturbs
# the debug build in .build; the man page is generated from a debug build in .build (the help
# text is the same in both, and scripts/test.sh has that build already). Running it again
# rebuilds what changed and replaces both files; nothing is fetched beyond the Swift packages and
# the Debian packages that scripts/bootstrap.sh installs. To uninstall, remove the three files.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

fail() {
    echo "install.sh: $*" >&2
    exit 1
}

if [ $# -gt 1 ]; then
    fail "usage: scripts/install.sh [PREFIX]"
fi
if [ $# -eq 1 ]; then
    prefix="$1"
elif [ "$(id -u)" -eq 0 ]; then
    prefix=/usr/local
else
    prefix="$HOME/.local"
fi
[ -n "$prefix" ] || fail "PREFIX is empty"
mkdir -p "$prefix" || fail "cannot create PREFIX $prefix"
prefix="$(cd "$prefix" && pwd)"

bash "$root/scripts/bootstrap.sh" || fail "scripts/bootstrap.sh failed: the Debian packages the build needs are missing"
cd "$root"

# The release binaries. SwiftPM does not redo a link when only --static-swift-stdlib changed, so
# the binaries are removed first: the link always runs with the flag (a few seconds), and the
# check below catches a scratch path built some other way.
#
# Every concrete generic type's metadata is made by its accessor, with the conformances it needs
# handed over, instead of from its mangled name: the runtime found each of those conformances by
# scanning the binary's whole table of them (about 380,000 instructions a scan), and the REPL's
# start-up made a dozen such scans, 4.4 M of its 15.5 M instructions (Benchmarks/README.md,
# "Start-up"). And libstdc++ (the Swift runtime's C++ library) is linked in statically: as a shared
# library its own 1,700 symbol bindings were most of the dynamic loader's work at each start
# (1.9 M instructions). Swift's static-stdlib link asks for `-lstdc++`, so a linker script named
# libstdc++.so, found first on the library path, hands the linker the archive instead; it comes
# with the C++ library the Swift toolchain needs (libstdc++-12-dev on Debian 12).
# The link is lld's (the Swift toolchain's), for its packed relative relocations (DT_RELR, glibc 2.36
# and later: Debian 12): the binary's 91,000 relocations were 2 MB that the loader read at each start
# and that stayed resident, a tenth of the REPL's memory at its prompt.
# Both products get the same flags, so that the packages they share are built once.
scratch="$root/.build-release"
static_cxx="$(cc -print-file-name=libstdc++.a 2>/dev/null || true)"
[ -f "$static_cxx" ] || fail "no libstdc++.a for the static link (cc -print-file-name=libstdc++.a said '$static_cxx'): install the libstdc++ -dev package of your C compiler"
mkdir -p "$scratch/static-libstdc++" || fail "cannot create $scratch/static-libstdc++"
echo "INPUT($static_cxx)" > "$scratch/static-libstdc++/libstdc++.so"
release_flags=(-c release --static-swift-stdlib --scratch-path "$scratch"
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
    -Xlinker -L"$scratch/static-libstdc++" -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
for product in portolan portolan-inspector; do
    rm -f "$scratch/release/$product"
    echo "install.sh: building $product (swift build ${release_flags[*]} --product $product)" >&2
    swift build "${release_flags[@]}" --product "$product" >&2 \
        || fail "the release build failed (swift build ${release_flags[*]} --product $product)"
    binary="$scratch/release/$product"
    [ -x "$binary" ] || fail "the release build left no binary at $binary"

    # No Swift runtime library may remain dynamic: the installed binary must run without a toolchain
    # (nor libstdc++, which is linked in for a faster start).
    swift_libraries="$(ldd "$binary" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|lib_Foundation|libstdc\+\+' || true)"
    if [ -n "$swift_libraries" ]; then
        fail "$binary still links Swift runtime libraries dynamically:
$swift_libraries
(remove .build-release and run scripts/install.sh again)"
    fi
done

# The man page, from the command's own help (--experimental-dump-help), dated by the last commit
# so that installing the same sources twice gives the same page.
echo "install.sh: generating the man page (swift package plugin generate-manual)" >&2
manual_date="$(git -C "$root" log -1 --format=%cs 2>/dev/null || date -u +%Y-%m-%d)"
manual_directory="$root/.build/plugins/GenerateManual/outputs/portolan"
rm -f "$manual_directory/portolan.1"
swift package plugin generate-manual --configuration debug --date "$manual_date" >&2 \
    || fail "the man page generator failed (swift package plugin generate-manual --configuration debug)"
[ -s "$manual_directory/portolan.1" ] || fail "the man page generator wrote no $manual_directory/portolan.1"

install -d "$prefix/bin" "$prefix/share/man/man1" || fail "cannot create $prefix/bin or $prefix/share/man/man1"
for product in portolan portolan-inspector; do
    install -m 755 "$scratch/release/$product" "$prefix/bin/$product" || fail "cannot install $prefix/bin/$product"
done
install -m 644 "$manual_directory/portolan.1" "$prefix/share/man/man1/portolan.1" \
    || fail "cannot install $prefix/share/man/man1/portolan.1"

echo "installed $prefix/bin/portolan ($("$prefix/bin/portolan" --version)) and $prefix/bin/portolan-inspector"
echo "installed $prefix/share/man/man1/portolan.1"
