# stap -t, --suppress-handler-errors and -B NAME=VAL reach the build:
# -t compiles the runtime's timing (-DSTP_TIMING: stp_timing_add in the
# module), --suppress-handler-errors -DSTP_SUPPRESS_HANDLER_ERRORS; -B
# variables go on make's command line (a KCFLAGS macro shows in kbuild's
# record of the script's compile command), the fast build path is left
# for kbuild (said with -v), and each option is part of the module cache
# key.  -B without NAME=VALUE is a one-line error.  (The lab tests
# opt_timing and opt_suppress_errors check what the options do at run
# time.)
set -u
fail() { echo "FAIL: $*"; exit 1; }
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
script='probe begin { println(pid()) exit() }'
# build OUT [options]: -p4 -k; OUT.ko (the cached path), OUT.err, OUT.dir
build() {
	out=$1; shift
	"$STAP" -r "$KVER" -p4 -k "$@" -e "$script" > $out.ko 2> $out.err ||
		{ cat $out.err; fail "build $out ($*)"; }
	sed -n 's/^Keeping temporary directory "\(.*\)"$/\1/p' $out.err > $out.dir
	[ -d "$(cat $out.dir)" ] || fail "$out: no kept directory"
}
cmdline() { cat "$(cat $1.dir)/gen/.script.o.cmd"; }

# option parsing
"$STAP" -t --suppress-handler-errors -B V=1 -p1 -e "$script" > /dev/null ||
	fail "-t --suppress-handler-errors -B V=1 refused"
err=$("$STAP" -B V -p1 -e "$script" 2>&1) && fail "-B V accepted"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "-B V: not one line: $err"
case $err in *"-B takes NAME=VALUE"*) ;; *) fail "-B V: $err" ;; esac

build base
build opts -t --suppress-handler-errors
build mk -v -B KCFLAGS=-DSTP_OPTT_MARK=42
build mk2 -B KCFLAGS=-DSTP_OPTT_MARK=43

# -t and --suppress-handler-errors: the runtime's macros
cmdline opts | grep -q -- '-DSTP_TIMING' || fail "-t: no -DSTP_TIMING"
cmdline opts | grep -q -- '-DSTP_SUPPRESS_HANDLER_ERRORS' ||
	fail "--suppress-handler-errors: no -DSTP_SUPPRESS_HANDLER_ERRORS"
nm "$(cat opts.ko)" | grep -q ' T stp_timing_add$' || fail "-t: no timing code"
nm "$(cat base.ko)" | grep -q 'stp_timing_add' && fail "timing code without -t"
cmdline base | grep -q -- 'STP_TIMING\|STP_SUPPRESS' && fail "base has the macros"

# -B: on make's command line, kbuild (not the recorded commands)
cmdline mk | grep -q -- '-DSTP_OPTT_MARK=42' || fail "-B KCFLAGS did not reach make"
grep -q '^stap: pass 4 with kbuild: -B make variables given$' mk.err ||
	fail "-v does not say -B forces kbuild: $(cat mk.err)"
[ -f "$(cat mk.dir)/build.log" ] || fail "-B: make did not run"

# the module cache keys
[ "$(cat opts.ko)" != "$(cat base.ko)" ] || fail "-t hit the plain module"
[ "$(cat mk.ko)" != "$(cat base.ko)" ] || fail "-B hit the plain module"
[ "$(cat mk.ko)" != "$(cat mk2.ko)" ] || fail "another -B value hit the cache"
again=$("$STAP" -r "$KVER" -p4 -v -B KCFLAGS=-DSTP_OPTT_MARK=42 -e "$script" 2> again.err)
[ "$again" = "$(cat mk.ko)" ] || fail "the same -B missed the cache"
grep -q 'using cached' again.err || fail "the same -B was rebuilt"
for d in base opts mk mk2; do rm -rf "$(cat $d.dir)"; done
exit 0
