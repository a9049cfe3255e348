# The BTF provider and kernel.trace through stap -L on the lab kernel
# (its debuginfo vmlinux carries the .BTF): parameters with SystemTap's
# type spelling, tracepoint arguments named from BTF, subsystems from the
# kernel's trace headers, clear errors for what BTF cannot answer.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
K=(-r "$KVER" --sysroot "$LAB/$KVER")
. "$srcdir/cmd/lib/want.sh"
want 'kernel.function("vfs_read") $file:struct file* $buf:char* $count:size_t $pos:loff_t*' \
    "${K[@]}" --btf -L 'kernel.function("vfs_read")'
want 'kernel.function("do_sys_open") $dfd:int $filename:char const* $flags:int $mode:umode_t' \
    "${K[@]}" --btf -L 'kernel.function("do_sys_open")'
want 'kernel.trace("sched:sched_process_exec") $p:struct task_struct* $old_pid:pid_t $bprm:struct linux_binprm*' \
    "${K[@]}" -L 'kernel.trace("sched:sched_process_exec")'
# DEFINE_EVENT: the names come from the class's __bpf_trace_ function
want 'kernel.trace("sched:sched_process_exit") $p:struct task_struct*' \
    "${K[@]}" -L 'kernel.trace("sched:sched_process_exit")'
# an event defined through a wrapper macro pasting its name (name##_entry)
want 'kernel.trace("irq_vectors:local_timer_entry") $vector:int' \
    "${K[@]}" -L 'kernel.trace("irq_vectors:local_timer_entry")'
want 'kernel.trace("sched:sched_stat_sleep") $tsk:struct task_struct* $delay:u64' \
    "${K[@]}" -L 'kernel.trace("sched_stat_sleep")'
# syscalls:sys_enter_NAME: arguments named from the sys_NAME prototype
want 'kernel.trace("syscalls:sys_enter_openat") $dfd:int $filename:char const* $flags:int $mode:umode_t' \
    "${K[@]}" -L 'kernel.trace("syscalls:sys_enter_openat")'
want 'kernel.trace("syscalls:sys_exit_read") $ret:long int' \
    "${K[@]}" -L 'kernel.trace("syscalls:sys_exit_read")'
n=$("$STAP" "${K[@]}" -l 'kernel.trace("syscalls:sys_enter_*")' | wc -l)
[ "$n" -ge 300 ] || fail "syscalls:sys_enter_* lists $n"
# wildcards in both parts
n=$("$STAP" "${K[@]}" -l 'kernel.trace("sched:*")' | wc -l)
[ "$n" -ge 20 ] || fail "sched:* lists $n tracepoints"
"$STAP" "${K[@]}" -l 'kernel.trace("*:sched_process_*")' > procs
[ "$(grep -c '^kernel.trace("sched:sched_process_' procs)" = 6 ] || { cat procs; fail "*:sched_process_* should list 6"; }
# every listed tracepoint of sched: is named SUBSYS:NAME
! grep -v '^kernel.trace("sched:' <("$STAP" "${K[@]}" -l 'kernel.trace("sched:*")') || fail "foreign lines"
# .exported and a wildcard through ksyms
"$STAP" "${K[@]}" --btf -l 'kernel.function("kernel_rea*").exported' > exp
grep -qx 'kernel.function("kernel_read").exported' exp || { cat exp; fail "kernel_read is exported"; }
# module functions: the .ko's split BTF and symbol table
want 'module("isofs").function("isofs_bmap") $inode:struct inode* $block:sector_t' \
    "${K[@]}" --btf -L 'module("isofs").function("isofs_bmap")'
! "$STAP" "${K[@]}" --btf -p2 -e 'probe module("isofs").function("init_iso9660_fs") {}' 2>err || fail "init function accepted"
! "$STAP" "${K[@]}" --btf -p2 -e 'probe module("no_such_mod").function("*") {}' 2>err || fail "unknown module accepted"
grep -q 'no module no_such_mod' err || { cat err; fail "no clear module error"; }
# BTF has no lines, files or locals
! "$STAP" "${K[@]}" --btf -p2 -e 'probe kernel.function("vfs_read@fs/read_write.c") {}' 2>err || fail "@file accepted"
grep -q 'need DWARF (install linux-image-'"$KVER"'-dbg)' err || { cat err; fail "no clear @file error"; }
! "$STAP" "${K[@]}" --btf -p2 -e 'probe kernel.statement("vfs_read@fs/read_write.c:450") {}' 2>err || fail "statement accepted"
grep -q 'need DWARF' err || { cat err; fail "no clear statement error"; }
! "$STAP" "${K[@]}" -p2 -e 'probe kernel.trace("nosuch:tracepoint") {}' 2>err || fail "unknown tracepoint accepted"
grep -q 'no tracepoint matches "nosuch:tracepoint"' err || { cat err; fail "no clear tracepoint error"; }
# kprobes refused by the kernel are not offered: the blacklist, .entry.text, .cold parts
! "$STAP" "${K[@]}" --btf -p2 -e 'probe kernel.function("do_int3") {}' 2>err || fail "blacklisted do_int3 accepted"
! "$STAP" "${K[@]}" --btf -p2 -e 'probe kernel.function("exc_int3") {}' 2>err || fail "noinstr exc_int3 accepted"
echo ok
