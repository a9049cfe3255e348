# Privilege levels and signing on the host (the loading itself is
# lab/privilege): staprun refuses a caller outside stapusr/stapsys/stapdev
# before anything else, with one line and status 1 (run as uid 65534
# through setpriv; needs root); stap-authorize-signing-cert is root-only;
# --privilege takes only SystemTap's names; a --privilege=stapusr module
# records its level in .modinfo; stap --sign-module writes MODULE.ko.sgn,
# a SHA-256/RSA (PKCS#1 v1.5) signature that the signer's certificate
# verifies (checked with openssl) and that fails for one byte changed;
# --sign-kernel=KEY,CERT appends the kernel's own module signature: the
# trailer names a PKCS#7 signature (id type 2) of sig_len bytes before it,
# which openssl verifies over the module's bytes before the signature.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
K=(-r "$KVER" --sysroot "$LAB/$KVER")
export SYSTEMTAP_DIR=$PWD/sysdir
fail() { echo "$*"; exit 1; }
[ "$(id -u)" = 0 ] || fail "privilege-host needs root (setpriv)"
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)

echo 'probe begin { exit() }' > m.stp
rc=0; "${nobody[@]}" "$STAPRUN" m.ko > out 2> err || rc=$?
if "$srcdir/lab/prefix-files" "$P" > /dev/null; then
    # the package's staprun: 04754 root:stapusr (dpkg-statoverride), so
    # that outside stapusr it cannot even be executed
    [ "$(stat -c '%a %U %G' "$STAPRUN")" = "4754 root stapusr" ] ||
        fail "packaged staprun is $(stat -c '%a %U %G' "$STAPRUN"), want 4754 root stapusr"
    # (exec'd by a shell: setpriv's own exec keeps root's capabilities)
    rc=0; "${nobody[@]}" /bin/sh -c "exec $STAPRUN m.ko" > out 2> err || rc=$?
    [ $rc = 126 ] && grep -q 'Permission denied' err ||
        fail "packaged staprun as uid 65534: status $rc, $(cat err), want it not executable"
else
    [ $rc = 1 ] || fail "staprun as uid 65534: status $rc, want 1"
    [ "$(cat err)" = "staprun: uid 65534 is neither root nor in the group stapusr, stapsys or stapdev: it may not load systemtap modules" ] ||
        fail "staprun as uid 65534 said: $(cat err)"
fi
[ ! -s out ] || fail "staprun as uid 65534 printed: $(cat out)"

rc=0; "${nobody[@]}" "$P/bin/stap-authorize-signing-cert" m.stp 2> err || rc=$?
[ $rc = 1 ] && grep -q "only root may add trusted signers" err ||
    fail "stap-authorize-signing-cert as uid 65534: status $rc: $(cat err)"

rc=0; "$STAP" --privilege=nobody -p1 m.stp 2> err || rc=$?
[ $rc = 1 ] && grep -q "^stap: --privilege takes stapusr, stapsys or stapdev, not 'nobody'" err ||
    fail "--privilege=nobody: status $rc: $(cat err)"

# the level in .modinfo, and the signature
"$P/bin/stap-gen-cert" "$PWD/signer" > /dev/null
"$STAP" "${K[@]}" --unprivileged -p4 -m m --sign-module="$PWD/signer" m.stp > /dev/null 2> err ||
    { cat err; fail "stap -p4 --unprivileged --sign-module failed"; }
[ -s m.ko.sgn ] || fail "no m.ko.sgn"
objcopy -O binary --only-section=.modinfo m.ko modinfo
tr '\0' '\n' < modinfo | grep -qx 'stap_privilege=stapusr' || fail "no stap_privilege=stapusr in .modinfo"
openssl x509 -in signer/stap.cert -pubkey -noout > pub.pem
openssl dgst -sha256 -verify pub.pem -signature m.ko.sgn m.ko > out 2>&1 ||
    fail "the signature does not verify: $(cat out)"
cp m.ko t.ko
printf 'Z' | dd of=t.ko bs=1 seek=5000 conv=notrunc 2> /dev/null
cmp -s m.ko t.ko && { printf 'Y' | dd of=t.ko bs=1 seek=5000 conv=notrunc 2> /dev/null; }
! openssl dgst -sha256 -verify pub.pem -signature m.ko.sgn t.ko > out 2>&1 ||
    fail "the signature verifies a changed module"
# a stapdev (default) module records no level
"$STAP" "${K[@]}" -p4 -m d m.stp > /dev/null 2> err || { cat err; fail "stap -p4 failed"; }
objcopy -O binary --only-section=.modinfo d.ko modinfo
! tr '\0' '\n' < modinfo | grep -q '^stap_privilege=' || fail "stapdev module has a stap_privilege"
# the kernel's format
openssl req -new -x509 -newkey rsa:2048 -keyout key.pem -out cert.pem -nodes \
    -days 2 -subj /CN=stap-test > /dev/null 2>&1
"$STAP" "${K[@]}" -p4 -m k --sign-kernel=key.pem,cert.pem m.stp > /dev/null 2> err ||
    { cat err; fail "stap -p4 --sign-kernel failed"; }
[ "$(tail -c 28 k.ko)" = "~Module signature appended~" ] || fail "no module signature magic"
n=$(stat -c %s k.ko)
set -- $(tail -c 40 k.ko | head -c 12 | od -An -tu1)
[ "$1 $2 $3 $4 $5" = "0 0 2 0 0" ] || fail "module_signature: algo/hash/id_type/signer/key_id $1 $2 $3 $4 $5"
sl=$(( ${9} * 16777216 + ${10} * 65536 + ${11} * 256 + ${12} ))
head -c $((n - 40 - sl)) k.ko > body
tail -c $((sl + 40)) k.ko | head -c $sl > sig.der
openssl cms -verify -binary -inform DER -in sig.der -content body -certfile cert.pem \
    -noverify -out /dev/null > out 2>&1 || fail "the kernel-format signature does not verify: $(cat out)"
cp body body0
printf 'Z' | dd of=body bs=1 seek=5000 conv=notrunc 2> /dev/null
cmp -s body0 body && { printf 'Y' | dd of=body bs=1 seek=5000 conv=notrunc 2> /dev/null; }
! openssl cms -verify -binary -inform DER -in sig.der -content body -certfile cert.pem \
    -noverify -out /dev/null > out 2>&1 || fail "the kernel-format signature verifies a changed module"
rc=0; "$STAP" "${K[@]}" -p4 -m k2 --sign-kernel=key.pem m.stp > /dev/null 2> err || rc=$?
[ $rc = 1 ] && grep -q "^stap: --sign-kernel wants KEYFILE,CERTFILE" err || fail "--sign-kernel=key.pem: status $rc: $(cat err)"
exit 0
