# stap -q: tapset coverage, as SystemTap records it, in the SQLite file
# $SYSTEMTAP_DIR/KVER.db, table counts (file, line, col, type, name,
# parent, compiled, executed): every run adds 1 to "compiled" of each probe
# point (the script's and those of the aliases expanded), probe local,
# function and global it compiled, and inserts with 0 those resolved and
# then left out as unused.  Without -q nothing is written.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
export SYSTEMTAP_DIR=$PWD/sd
command -v sqlite3 > /dev/null || fail "the sqlite3 client is not installed (quickstart installs it)"
cat > s.stp <<'STP'
global unused, n
probe input.char { n++; c = char }
function f() { return 1 }
probe end { println(n, execname()) }
STP
"$STAP" -p2 s.stp > /dev/null 2>&1 || fail "-p2"
[ ! -e sd ] || fail "without -q: $(ls sd)"
"$STAP" -q -p2 s.stp > /dev/null 2>&1 || fail "-q -p2"
db=$SYSTEMTAP_DIR/$(uname -r).db
[ -f "$db" ] || fail "no $db: $(ls sd)"
"$STAP" -q -p2 s.stp > /dev/null 2>&1 || fail "-q -p2, twice"
q() { sqlite3 -separator ' ' "$db" "$1"; }
[ "$(q "select type, name, parent, compiled, executed from counts where file='s.stp' order by line, col, type")" = \
"global unused  0 0
global n  2 0
probe input.char  2 0
local c input.char 2 0
function f  0 0
probe end  2 0" ] || fail "the script's counts: $(q "select * from counts where file='s.stp'")"
# the alias input.char = procfs("__stdin").write, in the tapset: its
# point and prologue locals
tap=$(q "select file from counts where type='probe' and name='procfs(\"__stdin\").write'")
case $tap in */tapset/*.stp) ;; *) fail "alias point: '$tap'" ;; esac
[ "$(q "select compiled from counts where type='probe' and name='procfs(\"__stdin\").write'")" = 2 ] ||
	fail "alias point count"
[ "$(q "select compiled from counts where type='local' and name='char' and parent='input.char'")" = 2 ] ||
	fail "alias local char: $(q "select * from counts where type='local'")"
[ "$(q "select compiled from counts where type='function' and name='execname'")" = 2 ] ||
	fail "tapset function execname: $(q "select * from counts where type='function'")"
# one row per element
[ "$(q "select count(*) from (select file, line, col, type, name from counts group by 1, 2, 3, 4, 5 having count(*) > 1)")" = 0 ] ||
	fail "repeated rows"
[ "$(q "select name from sqlite_master where type='index'")" = tokens ] || fail "no index tokens"
# a failed pass 2 records nothing more
"$STAP" -q -p2 -e 'probe begin { y }' > /dev/null 2>&1 && fail "a bad script passed"
[ "$(q "select max(compiled) from counts")" = 2 ] || fail "a failed run counted"
# a database that cannot be written: a one-line message, the run goes on
rm -rf sd; mkdir sd; mkdir "$db"
out=$("$STAP" -q -p2 -e 'probe begin { exit() }' 2>err) || fail "unwritable database failed the run"
[ "$(wc -l < err)" = 1 ] && grep -q "^stap: -q: cannot update the coverage database $db: " err ||
	fail "unwritable database: $(cat err)"
exit 0
