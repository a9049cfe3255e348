# priv-users.sh - the users and groups of the privilege tests (sourced by
# lab/privilege, lab/privilege_sys and lab/privilege_pkg, which may run in
# the same boot): outsider (no group), dev (stapdev), usra and usrb
# (stapusr), sysu (stapsys), uids 1001-1005.  As SystemTap asks, the
# stapsys and stapdev users are in stapusr too: a packaged staprun
# (04754 root:stapusr) is executable by stapusr only.  stapusr has the
# gid staprun's file has when that is not root's (the package's group,
# whose gid the host chose), else 156.
# (the guest's busybox has no adduser/addgroup: the files directly)
if ! grep -q '^usra:' /etc/passwd; then
    cat >> /etc/passwd <<'PW'
outsider:x:1001:1001::/tmp:/bin/sh
dev:x:1002:1002::/tmp:/bin/sh
usra:x:1003:1003::/tmp:/bin/sh
usrb:x:1004:1004::/tmp:/bin/sh
sysu:x:1005:1005::/tmp:/bin/sh
PW
fi
if ! grep -q '^stapusr:' /etc/group; then
    gusr=$(stat -c %g "$(command -v staprun)")
    [ "$gusr" != 0 ] || gusr=156
    gsys=157 gdev=158
    [ "$gusr" != 157 ] && [ "$gusr" != 158 ] || { gsys=159 gdev=160; }
    cat >> /etc/group <<GR
outsider:x:1001:
dev:x:1002:
usra:x:1003:
usrb:x:1004:
sysu:x:1005:
stapusr:x:$gusr:usra,usrb,dev,sysu
stapsys:x:$gsys:sysu
stapdev:x:$gdev:dev
GR
fi
