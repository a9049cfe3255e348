# The installation under test.  When it is the Debian packages
# (lab/prefix-files): the groups stapusr, stapsys and stapdev exist;
# dpkg-statoverride holds "root stapusr 4754 /usr/bin/staprun" and the
# file has that mode, owner and group; the package's archive itself has
# staprun 0755 root:root (so removing the package leaves no setuid file:
# the override goes in postrm); the trusted signers' directory is
# root:root 0755; dpkg --verify finds every installed file intact; every
# man page is where man finds it.  Else (make install as root): staprun
# is 04755 root:root.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
staprun=$P/bin/staprun
if ! "$srcdir/lab/prefix-files" "$P" > /dev/null; then
    [ "$(stat -c '%a %U %G' "$staprun")" = "4755 root root" ] ||
        fail "make install's staprun is $(stat -c '%a %U %G' "$staprun"), want 4755 root root"
    echo "not a package install: make install's staprun checked"
    exit 0
fi
for g in stapusr stapsys stapdev; do
    getent group $g > /dev/null || fail "no group $g"
done
[ "$(dpkg-statoverride --list "$staprun")" = "root stapusr 4754 $staprun" ] ||
    fail "statoverride: $(dpkg-statoverride --list "$staprun")"
[ "$(stat -c '%a %U %G' "$staprun")" = "4754 root stapusr" ] || fail "staprun is $(stat -c '%a %U %G' "$staprun")"
[ "$(stat -c '%a %U %G' /etc/systemtap/staprun)" = "755 root root" ] ||
    fail "/etc/systemtap/staprun is $(stat -c '%a %U %G' /etc/systemtap/staprun)"
pkgs="systemtap-ng systemtap-ng-runtime systemtap-ng-doc"
for p in $pkgs; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' $p)" = installed ] || fail "$p is not installed"
done
# (dpkg --verify: md5sums; the statoverride's mode is not a change)
out=$(dpkg --verify $pkgs 2>&1) || true
[ -z "$out" ] || fail "dpkg --verify: $out"
# the archive's staprun, as dpkg unpacks it before the override: no setuid
deb=$(ls "$srcdir"/../_deb/systemtap-ng-runtime_*.deb 2>/dev/null | head -n 1)
if [ -n "$deb" ]; then
    dpkg-deb -c "$deb" | grep -q '^-rwxr-xr-x root/root .* \./usr/bin/staprun$' ||
        fail "staprun in $deb: $(dpkg-deb -c "$deb" | grep staprun)"
fi
# postrm removes the override on remove and purge
dpkg-query --control-show systemtap-ng-runtime postrm | grep -q 'dpkg-statoverride --remove /usr/bin/staprun' ||
    fail "postrm does not remove the statoverride"
for m in man1/stap.1.gz man1/stap-prep.1.gz man8/staprun.8.gz man7/error::pass2.7stap.gz \
         man3/stapprobes.3stap.gz man3/function::execname.3stap.gz; do
    [ -s "$P/share/man/$m" ] || fail "no $P/share/man/$m"
done
echo ok
