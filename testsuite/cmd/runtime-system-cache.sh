# The runtime root builds for every user (stap-prep --runtime, run by the
# Debian package's /etc/kernel/header_postinst.d hook when a kernel's
# headers are installed; translator/build/syscache.c): a user whose cache
# has never seen the kernel copies it, precompiled headers included, and
# compiles only the script's C; the copy is the user's own, byte for
# byte the system's.  Nothing is taken from a system cache another user
# could have written: a file there writable by its group, or not root's,
# or a symbolic link, and the user compiles the runtime as without it.
# The lab's default kernel; a system directory of the test's own
# (STAP_SYSTEM_DIR) in a new directory of root's, filled by the kernel
# hook where the packages are installed, else by stap-prep --runtime; a
# build as root and one as nobody.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")   # the lab's default line
[ "$(id -u)" = 0 ] || fail "needs root (stap-prep --runtime writes a root-only cache)"
top=$(mktemp -d)            # 0700 root: a trusted place for the system cache
trap 'rm -rf "$top"' EXIT
export STAP_SYSTEM_DIR=$top/sys
hook=/etc/kernel/header_postinst.d/systemtap-ng
if [ "$P" = /usr ] && [ -x "$hook" ]; then
    # the packages: what installing the kernel's headers runs (quiet)
    "$hook" "$KVER" > prep.out 2>&1 || fail "$hook: status $?: $(cat prep.out)"
    [ ! -s prep.out ] || fail "$hook said: $(cat prep.out)"
else
    "$P/bin/stap-prep" --runtime -r "$KVER" > prep.out 2>&1 || fail "stap-prep --runtime: $(cat prep.out)"
    grep -qx "stap-prep: runtime for $KVER built in $STAP_SYSTEM_DIR/cache/runtime" prep.out ||
        fail "stap-prep said: $(cat prep.out)"
fi
leaf=$(ls -d "$STAP_SYSTEM_DIR/cache/runtime/$KVER"-*)
for f in stp_runtime_unit1.o stp_runtime_unit2.o fastbuild.recipe stp_pch.h.gch; do
    [ -s "$leaf/$f" ] || fail "no $f in $leaf: $(ls "$leaf")"
done
[ -z "$(ls "$STAP_SYSTEM_DIR/cache" | grep -v -e '^runtime$' -e '^kbuild-cc$' -e '^index.db' -e '^cache_mb_limit$')" ] ||
    fail "stap-prep left more than the runtime: $(ls "$STAP_SYSTEM_DIR/cache")"
# build N TAG: a user's first script for the kernel (an empty cache of
# its own, userN), -vv's lines in errN
build() {
    SYSTEMTAP_DIR=$PWD/user$1 "$STAP" -vv -r "$KVER" -p4 \
        -e "probe begin { println(\"hello $1\") exit() }" > /dev/null 2> err$1 ||
        { cat err$1; fail "build $1 failed"; }
}
build 1
grep -q "^stap: runtime objects: copied from $leaf\$" err1 || fail "not copied: $(grep 'runtime objects' err1)"
grep -q "^stap: runtime objects: cached in $PWD/user1/cache/runtime/" err1 ||
    fail "the copy was not used: $(grep 'runtime objects' err1)"
own=$PWD/user1/cache/runtime/$(basename "$leaf")
(cd "$leaf" && find . -type f | sort) > sys.files
(cd "$own" && find . -type f | sort) > own.files
cmp -s sys.files own.files || fail "the copy differs: $(diff sys.files own.files)"
while read -r f; do
    cmp -s "$leaf/$f" "$own/$f" || fail "$f differs from the system's"
done < sys.files
# the case it is for: a user who is not root, the system cache readable
# by all (stap makes its own cache private; stap-prep opens this one)
[ "$(stat -c %a "$STAP_SYSTEM_DIR/cache") $(stat -c %a "$STAP_SYSTEM_DIR/cache/runtime")" = "755 755" ] ||
    fail "the system cache is not readable by all: $(ls -ld "$STAP_SYSTEM_DIR/cache" "$STAP_SYSTEM_DIR/cache/runtime")"
chmod 755 "$top"
mkdir "$top/nobody"
chown nobody "$top/nobody"
setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$top/nobody" \
    SYSTEMTAP_DIR="$top/nobody/stap" "$STAP" -vv -r "$KVER" -p4 \
    -e 'probe begin { println("hello nobody") exit() }' > /dev/null 2> err.nobody ||
    { cat err.nobody; fail "nobody's build failed"; }
grep -q "^stap: runtime objects: copied from $leaf\$" err.nobody ||
    fail "not copied for nobody: $(grep 'runtime objects' err.nobody)"
[ "$(stat -c %U "$top/nobody/stap/cache/runtime/$(basename "$leaf")/stp_runtime_unit1.o")" = nobody ] ||
    fail "nobody's copy is not nobody's"
# refused N: build N compiles the runtime itself (no precompiled headers
# after it: they would only load the host in the background)
refused() {
    STAP_PCH=0 build "$1"
    grep -q "runtime objects: copied" err$1 && fail "$2: copied: $(grep 'runtime objects' err$1)"
    grep -q "^stap: runtime objects: compiling, to cache in $PWD/user$1/" err$1 ||
        fail "$2: $(grep 'runtime objects' err$1)"
}
chmod g+w "$leaf/stp_runtime_unit2.o"
refused 2 "a group-writable object"
chmod g-w "$leaf/stp_runtime_unit2.o"
chown nobody "$leaf/fastbuild.recipe"
refused 3 "a recipe not root's"
chown root "$leaf/fastbuild.recipe"
ln -s /etc/passwd "$leaf/stp_link"
refused 4 "a symbolic link"
rm "$leaf/stp_link"
chmod g+w "$STAP_SYSTEM_DIR"
refused 5 "a group-writable system directory"
chmod g-w "$STAP_SYSTEM_DIR"
echo ok
