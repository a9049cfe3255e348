# The module cache trusts nothing it did not store: the cache directory is
# 0700 and its modules 0600; a cached module whose contents no longer match
# the digest recorded when it was stored, or that another user could have
# written, is rebuilt rather than loaded.
set -eu
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
script='probe begin { println("tamper") exit() }'
p=$("$STAP" -r "$KVER" -p4 -e "$script" | tail -n 1)
[ -f "$p" ] || { echo "no module at '$p'"; exit 1; }
[ "$(stat -c %a "$SYSTEMTAP_DIR/cache")" = 700 ] || { echo "cache dir not 0700"; exit 1; }
[ "$(stat -c %a "$p")" = 600 ] || { echo "module not 0600: $(stat -c %a "$p")"; exit 1; }
good=$(sha256sum < "$p")
# one byte changed
printf 'X' | dd of="$p" bs=1 seek=4096 conv=notrunc 2>/dev/null
bad=$(sha256sum < "$p")
[ "$bad" != "$good" ] || { echo "tampering failed"; exit 1; }
p2=$("$STAP" -r "$KVER" -p4 -v -e "$script" 2> err | tail -n 1)
cat err
grep -q 'does not match the digest recorded' err || { echo "tampering not detected"; exit 1; }
grep -q 'Pass 4: compiled' err || { echo "not rebuilt"; exit 1; }
[ "$p2" = "$p" ] && [ "$(sha256sum < "$p2")" != "$bad" ] || { echo "the tampered module is still there"; exit 1; }
# a module others may write is not used either
chmod g+w "$p"
"$STAP" -r "$KVER" -p4 -v -e "$script" 2> err2 > /dev/null
grep -q 'could have been written by another user' err2 || { cat err2; echo "group-writable module used"; exit 1; }
grep -q 'Pass 4: compiled' err2 || { echo "not rebuilt after chmod"; exit 1; }
# and an intact one is a hit
"$STAP" -r "$KVER" -p4 -v -e "$script" 2> err3 > /dev/null
grep -q 'using cached' err3 || { cat err3; echo "intact module not a hit"; exit 1; }
