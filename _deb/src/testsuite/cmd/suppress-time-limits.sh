# stap --suppress-time-limits (SystemTap's: lifts MAXACTION) needs guru
# mode: without -g a one-line error and exit status 1; with -g it is
# taken.  (lab/suppress_time_limits runs a hit of 10,000 statements.)
set -eu
export SYSTEMTAP_DIR=$PWD/sysdir
rc=0
"$STAP" -p2 --suppress-time-limits -e 'probe begin { exit() }' > out 2> err || rc=$?
cat err
[ "$rc" = 1 ] || { echo "without -g: exit status $rc, not 1"; exit 1; }
[ "$(cat err)" = "stap: --suppress-time-limits needs guru mode (-g)" ] || { echo "wrong error"; exit 1; }
"$STAP" -p2 -g --suppress-time-limits -e 'probe begin { exit() }' > out 2> err ||
    { cat err; echo "with -g: refused"; exit 1; }
exit 0
