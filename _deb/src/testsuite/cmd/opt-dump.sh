# stap --dump-probe-types, --dump-probe-aliases, --dump-functions: sorted
# lists without repeats in SystemTap's formats; names starting with '_'
# only with -v; a script with them is an error.
set -u
fail() { echo "FAIL: $*"; exit 1; }
nodup() { [ -z "$(sort "$1" | uniq -d)" ] || fail "$1 has repeats: $(sort "$1" | uniq -d | head -3)"; }
sorted() { LC_ALL=C sort -c "$1" 2>/dev/null || fail "$1 not sorted"; }

"$STAP" --dump-probe-types > types || fail "--dump-probe-types"
nodup types; sorted types
for t in begin 'begin(number)' 'timer.ms(number)' 'kernel.function(string).return' \
	 'process(string).function(string)' 'procfs(string).read' never \
	 'perf.type(number).config(number).sample(number)' 'kernel.trace(string)'; do
	grep -qxF "$t" types || fail "--dump-probe-types lacks $t"
done
# --privilege=stapusr: only what stapusr may use
"$STAP" --privilege=stapusr --dump-probe-types > utypes || fail "--privilege=stapusr --dump-probe-types"
for t in begin 'end(number)' error never 'timer.ms(number)' 'process(string).function(string)' \
	 'process.begin' 'process(number).end'; do
	grep -qxF "$t" utypes || fail "stapusr types lack $t"
done
for t in 'kernel.function(string)' timer.profile 'timer.profile.tick' 'procfs(string).read' \
	 'perf.sw.cpu_clock' 'kprobe.function(string)' 'netfilter.pf(string).hook(string)'; do
	grep -qxF "$t" utypes && fail "stapusr types have $t"
done
[ "$(LC_ALL=C comm -13 types utypes)" = "" ] || fail "stapusr types not a subset"
grep -q '[A-Z]' types && fail "--dump-probe-types: NUMBER/STRING left: $(grep '[A-Z]' types | head -2)"

"$STAP" --dump-probe-aliases > aliases || fail "--dump-probe-aliases"
nodup aliases; sorted aliases
grep -qxF 'ioblock.request = kernel.trace("block:block_bio_queue")' aliases ||
	fail "--dump-probe-aliases lacks ioblock.request: $(grep ^ioblock aliases)"
grep -q '^syscall\.read = ' aliases || fail "--dump-probe-aliases lacks syscall.read"
grep -q '^_' aliases && fail "--dump-probe-aliases: internal aliases without -v"
[ "$(grep -c ' += \| = ' aliases)" = "$(wc -l < aliases)" ] || fail "--dump-probe-aliases: a line without = "

"$STAP" --dump-functions > funcs || fail "--dump-functions"
nodup funcs; sorted funcs
# as SystemTap's: the privilege pragmas of a function's embedded C follow,
# and guru-only functions are listed without -g too
for f in 'substr:string (str:string, start:long, length:long) /* unprivileged */' \
	 'execname:string () /* unprivileged */' 'pid:long () /* unprivileged */' \
	 'user_string:string (addr:long)' 'user_string:string (addr:long, err_msg:string)' \
	 'exit:unknown () /* unprivileged */' 'set_kernel_int:unknown (addr:long, val:long) /* guru */'; do
	grep -qxF "$f" funcs || fail "--dump-functions lacks '$f': $(grep "^${f%%:*}:" funcs)"
done
grep -q '^_' funcs && fail "--dump-functions: internal functions without -v"
[ "$(grep -c '^[A-Za-z0-9_]*:[a-z]* (.*)\( /\* [a-z-]* \*/\)*$' funcs)" = "$(wc -l < funcs)" ] ||
	fail "--dump-functions: a line not NAME:TYPE (ARGS)"
"$STAP" -v --dump-functions > vfuncs 2>/dev/null || fail "-v --dump-functions"
grep -q '^_' vfuncs || fail "-v --dump-functions has no internal function"
[ "$(grep -v '^_' vfuncs)" = "$(cat funcs)" ] || fail "-v --dump-functions differs beyond '_' names"

# a script with --dump-*: one line, status 1
printf 'probe begin {}\n' > s.stp
for o in --dump-functions --dump-probe-types; do
	rc=0; err=$("$STAP" $o s.stp 2>&1) || rc=$?
	[ "$rc" = 1 ] && [ "$err" = "stap: --dump-* takes no script, -l or -L" ] || fail "$o s.stp: $rc $err"
	rc=0; err=$("$STAP" $o -e 'probe begin {}' 2>&1) || rc=$?
	[ "$rc" = 1 ] || fail "$o -e: $rc $err"
done
exit 0
