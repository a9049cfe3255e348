#!/usr/bin/env python3
"""gen-syscalls.py - generate the syscall tapsets from the lab kernels' facts.

Writes, into the tapset/linux directory:
  syscalls.stp     syscall.NAME and syscall.NAME.return for every x86-64
                   system call: kprobe aliases on the __x64_sys_NAME wrapper
                   setting name, the arguments, argstr (entry) and retval,
                   retstr (return)
  nd_syscalls.stp  nd_syscall.NAME[.return], the same probes under the
                   names SystemTap gives its no-debuginfo variants
  errno.stp        errno_str() and return_str() from the kernel's errno
                   headers
  syscall_num.stp  syscall_name(NR) and syscall_num(NAME): the system call
                   table's names (as syscall.NAME's name variable has them)

Facts used:
  - the system call table ARCH_HDRS/arch/x86/include/generated/asm/
    syscalls_64.h (which system calls x86-64 has; sys_ni_syscall slots
    are left out);
  - the kernel's symbols (SYSROOT/boot/System.map-KVER, or the symbol
    table of the debug vmlinux when System.map is Debian's placeholder):
    each call needs its __x64_sys_NAME wrapper;
  - the prototypes in COMMON_HDRS/include/linux/syscalls.h (argument
    names and C types), with OVERRIDES below for calls it lacks or
    declares without argument names.

The tapsets cover every kernel given (default: every line of the lab,
STAP_LAB_DIR/kver and STAP_LAB_DIR/lines/*): each system call of any of
them, once, its kprobe optional, so that on each kernel exactly its own
calls are probed; a call whose number or argument variables differ
between the kernels stops the generator.

Usage (from the top of the source tree):
  tapset/linux/gen/gen-syscalls.py [--kver KVER]... [--lab DIR]
      [--out tapset/linux]
Each KVER's headers are /usr/src/linux-headers-KVER and its -common
sibling; its symbols are under the sysroot LAB/KVER.
Rerun it when a line is added or moves to a new release, and commit the
generated files: testsuite/cmd/tapset-syscalls-regen.sh fails until then.
"""
import argparse
import os
import re
import subprocess
import sys

# Calls that syscalls.h does not declare, declares without argument names,
# or declares differently by configuration: (C type, name) in x86-64 order.
OVERRIDES = {
    'mmap': [('unsigned long', 'start'), ('unsigned long', 'len'),
             ('unsigned long', 'prot'), ('unsigned long', 'flags'),
             ('unsigned long', 'fd'), ('unsigned long', 'offset')],
    'rt_sigreturn': [],
    'rt_sigaction': [('int', 'sig'), ('const struct sigaction __user *', 'act'),
                     ('struct sigaction __user *', 'oact'), ('size_t', 'sigsetsize')],
    'socket': [('int', 'family'), ('int', 'type'), ('int', 'protocol')],
    'socketpair': [('int', 'family'), ('int', 'type'), ('int', 'protocol'),
                   ('int __user *', 'sv')],
    'connect': [('int', 'sockfd'), ('struct sockaddr __user *', 'serv_addr'),
                ('int', 'addrlen')],
    'bind': [('int', 'sockfd'), ('struct sockaddr __user *', 'my_addr'),
             ('int', 'addrlen')],
    'listen': [('int', 'sockfd'), ('int', 'backlog')],
    'accept': [('int', 'sockfd'), ('struct sockaddr __user *', 'addr'),
               ('int __user *', 'addrlen')],
    'accept4': [('int', 'sockfd'), ('struct sockaddr __user *', 'addr'),
                ('int __user *', 'addrlen'), ('int', 'flags')],
    'sendto': [('int', 's'), ('void __user *', 'buf'), ('size_t', 'len'),
               ('unsigned int', 'flags'), ('struct sockaddr __user *', 'to'),
               ('int', 'tolen')],
    'recvfrom': [('int', 's'), ('void __user *', 'buf'), ('size_t', 'len'),
                 ('unsigned int', 'flags'), ('struct sockaddr __user *', 'addr'),
                 ('int __user *', 'addrlen')],
    'shutdown': [('int', 's'), ('int', 'how')],
    'getsockname': [('int', 's'), ('struct sockaddr __user *', 'name'),
                    ('int __user *', 'namelen')],
    'getpeername': [('int', 's'), ('struct sockaddr __user *', 'name'),
                    ('int __user *', 'namelen')],
    # x86-64 has neither CONFIG_CLONE_BACKWARDS nor ..._BACKWARDS2/3
    'clone': [('unsigned long', 'clone_flags'), ('unsigned long', 'newsp'),
              ('int __user *', 'parent_tid'), ('int __user *', 'child_tid'),
              ('unsigned long', 'tls')],
    'modify_ldt': [('int', 'func'), ('void __user *', 'ptr'),
                   ('unsigned long', 'bytecount')],
    'arch_prctl': [('int', 'code'), ('unsigned long', 'addr')],
    'iopl': [('unsigned int', 'level')],
    'io_submit': [('aio_context_t', 'ctx_id'), ('long', 'nr'),
                  ('struct iocb __user * __user *', 'iocbpp')],
    'pselect6': [('int', 'n'), ('fd_set __user *', 'inp'), ('fd_set __user *', 'outp'),
                 ('fd_set __user *', 'exp'), ('struct __kernel_timespec __user *', 'tsp'),
                 ('void __user *', 'sig')],
    'ppoll': [('struct pollfd __user *', 'fds'), ('unsigned int', 'nfds'),
              ('struct __kernel_timespec __user *', 'tsp'),
              ('const sigset_t __user *', 'sigmask'), ('size_t', 'sigsetsize')],
    # the 64-bit declaration (the other one splits mask for 32-bit ABIs)
    'fanotify_mark': [('int', 'fanotify_fd'), ('unsigned int', 'flags'),
                      ('u64', 'mask'), ('int', 'dirfd'),
                      ('const char __user *', 'pathname')],
}

# The names SystemTap uses for calls whose kernel entry has another name.
PROBE_NAMES = {'newstat': 'stat', 'newlstat': 'lstat', 'newfstat': 'fstat',
               'newuname': 'uname'}

S32 = {'int', 'pid_t', 'key_serial_t', 'clockid_t', 'timer_t', 'mqd_t',
       'key_t', 'rwf_t', 's32', '__s32', 'const int'}
U32 = {'unsigned int', 'unsigned', 'u32', '__u32', 'uint32_t', 'uid_t', 'gid_t',
       'qid_t'}
U16 = {'umode_t', 'unsigned short'}
S64 = {'long', 'off_t', 'loff_t', 'ssize_t', 'long long', 's64', '__s64'}
U64 = {'unsigned long', 'size_t', 'u64', '__u64', 'aio_context_t',
       'unsigned long long'}
PTR_TYPEDEFS = {'cap_user_header_t', 'cap_user_data_t'}

STAP_KEYWORDS = {'probe', 'global', 'function', 'private', 'if', 'else',
                 'for', 'foreach', 'in', 'limit', 'while', 'break',
                 'continue', 'next', 'return', 'delete', 'try', 'catch'}
# Variables every alias sets itself.
RESERVED = {'name', 'argstr', 'retval', 'retstr'}

# Calls returning an address: retstr in hex.
HEX_RETURNS = {'mmap', 'brk', 'mremap', 'shmat'}

DFD_NAMES = {'dfd', 'olddfd', 'newdfd', 'dirfd', 'fromfd', 'todfd'}
O_CREAT, O_TMPFILE = 0o100, 0o20000000


def parse_prototypes(path):
    """{name: [(type, argname), ...]} from syscalls.h (first declaration
    wins; unnamed ones give None so that OVERRIDES must cover them)."""
    src = re.sub(r'/\*.*?\*/', '', open(path).read(), flags=re.S)
    protos, multi = {}, set()
    for m in re.finditer(r'asmlinkage\s+long\s+sys_(\w+)\s*\((.*?)\)\s*;', src, re.S):
        name, params = m.group(1), ' '.join(m.group(2).split())
        if name in protos:
            multi.add(name)
            continue
        args = []
        if params != 'void':
            for p in params.split(','):
                p = p.strip()
                m2 = re.match(r'^(.*?[\s*])(\w+)$', p)
                if not m2 or m2.group(2) in ('int', 'long', 'unsigned', 'size_t', 'u32',
                                              'u64', 'aio_context_t'):
                    args = None
                    break
                args.append((' '.join(m2.group(1).replace('*', ' * ').split())
                             .replace(' *', '*').replace('*', ' *').strip(), m2.group(2)))
        protos[name] = args
    for name in multi:
        protos[name] = None
    return protos


def syscall_table(path):
    out = []
    for line in open(path):
        m = re.match(r'__SYSCALL(?:_NORETURN)?\((\d+),\s*sys_(\w+)\)', line)
        if m and m.group(2) != 'ni_syscall':
            out.append((int(m.group(1)), m.group(2)))
    return out


def kernel_symbols(sysroot, kver):
    smap = os.path.join(sysroot, 'boot', 'System.map-' + kver)
    lines = []
    if os.path.exists(smap):
        lines = open(smap).read().splitlines()
    if len(lines) < 100:    # Debian's placeholder: use the debug vmlinux
        vmlinux = os.path.join(sysroot, 'usr/lib/debug/boot', 'vmlinux-' + kver)
        lines = subprocess.run(['nm', vmlinux], check=True, capture_output=True,
                               text=True).stdout.splitlines()
    return {l.split()[2] for l in lines if len(l.split()) == 3}


def norm_type(t):
    return ' '.join(t.replace('*', ' * ').split()).replace(' *', '*').replace('*', ' *')


def classify(ctype, argname):
    """'str', 'ptr', 's32', 'u32', 'u16', 's64' or 'u64'"""
    t = norm_type(ctype)
    if t == 'const char __user *' and 'buf' not in argname:
        return 'str'
    if t.startswith('enum '):
        return 's32'
    if '*' in t or t.replace('const ', '') in PTR_TYPEDEFS:
        return 'ptr'
    for kind, names in (('s32', S32), ('u32', U32), ('u16', U16), ('s64', S64),
                        ('u64', U64)):
        if t in names:
            return kind
    sys.stderr.write('gen-syscalls: unknown type %r of %s, read as long\n' % (t, argname))
    return 's64'


# Argument names renamed: `n` would clash with the scripts' favourite
# global (`probe syscall.* { n[name]++ }` must work).
RENAMED = {'n': 'nfds'}


def var_name(argname, kind):
    n = RENAMED.get(argname, argname)
    if kind == 'ptr' and not n.endswith('_uaddr'):
        return n + '_uaddr'
    if kind == 'str' and n in RESERVED:
        return n + '_str'
    if n in RESERVED or n in STAP_KEYWORDS:
        return n + '_val'
    return n


READER = {'s32': '__sc_s32', 'u32': '__sc_u32', 'u16': '__sc_u16',
          's64': '__sc_arg', 'u64': '__sc_arg', 'ptr': '__sc_arg'}


def gen_entry(call, pname, args):
    body = ['\tname = "%s"' % pname]
    fmts, vals = [], []
    names = {}
    for i, (ctype, argname) in enumerate(args, 1):
        kind = classify(ctype, argname)
        v = var_name(argname, kind)
        names[argname] = v
        if kind == 'str':
            body.append('\t%s_uaddr = __sc_arg(%d)' % (argname, i))
            body.append('\t%s = user_string_quoted(%s_uaddr)' % (v, argname))
            fmts.append('%s')
            vals.append(v)
            continue
        body.append('\t%s = %s(%d)' % (v, READER[kind], i))
        if kind == 'ptr':
            fmts.append('0x%x')
            vals.append(v)
        elif argname in DFD_NAMES and kind == 's32':
            fmts.append('%s')
            vals.append('_dfd_str(%s)' % v)
        elif call in ('open', 'openat') and argname == 'flags':
            fmts.append('%s')
            vals.append('_sys_open_flag_str(%s)' % v)
        elif argname == 'mode' or kind == 'u16':
            fmts.append('%#o')
            vals.append(v)
        elif kind in ('u32', 'u64'):
            fmts.append('%u')
            vals.append(v)
        else:
            fmts.append('%d')
            vals.append(v)
    if call in ('execve', 'execveat'):
        # argv and envp as SystemTap shows them: the strings, the count
        body.append('\targs = __sc_argv(argv_uaddr)')
        body.append('\tenv_str = __sc_envc(envp_uaddr)')
        repl = {'argv_uaddr': 'args', 'envp_uaddr': 'env_str'}
        for k, (f, val) in enumerate(zip(fmts, vals)):
            if val in repl:
                fmts[k], vals[k] = '%s', repl[val]
    if call in ('open', 'openat') and 'mode' in names:
        # the mode means something only when a file may be created
        short = [(f, v) for f, v in zip(fmts, vals) if v != names['mode']]
        body.append('\tif (flags & %d)' % (O_CREAT | O_TMPFILE))
        body.append('\t\targstr = sprintf("%s", %s)' % (', '.join(fmts), ', '.join(vals)))
        body.append('\telse')
        body.append('\t\targstr = sprintf("%s", %s)' % (', '.join(f for f, _ in short),
                                                         ', '.join(v for _, v in short)))
    elif fmts:
        body.append('\targstr = sprintf("%s", %s)' % (', '.join(fmts), ', '.join(vals)))
    else:
        body.append('\targstr = ""')
    return body


# The doc comments of the generated probes (one per family: the reference
# pages, man/gen/tapset-man, give each alias its own page from them).
SC_DOC = '''
/**
 * probe syscall.* - entry to the * system call
 * @name: the system call's name, "*"
 * @argstr: the arguments as text, as strace(1) shows them
 *
 * Context: the task making the system call; the memory its arguments
 * point to is that task's user memory (user_string() and friends read it).
 *
 * Description: One alias per x86-64 system call of the kernels this file
 * was generated from, an optional kprobe on its wrapper __x64_sys_NAME:
 * a call the target kernel lacks resolves to no probe (syscall.* leaves
 * it out; naming it alone probes nothing).  The
 * variables are the call's arguments under their kernel names, as
 * integers; an argument that points to user memory is NAME_uaddr, and the
 * string read from it (a file name, quoted) NAME; the page lists the
 * variables this alias sets.
 */

/**
 * probe syscall.*.return - return from the * system call
 * @name: the system call's name, "*"
 * @retval: what the call returns: a count, a file descriptor, an
 * address, 0, or -errno on failure
 * @retstr: retval as text, an error with its name ("-2 (ENOENT)")
 *
 * Context: the task that made the system call, as the call returns to
 * user space.
 *
 * Description: A kretprobe on the call's wrapper __x64_sys_NAME.  The
 * call's arguments are not set here: read them in the entry probe, or
 * with @entry().
 */
'''

ND_DOC = '''
/**
 * probe nd_syscall.* - entry to the * system call (SystemTap's
 * name for the variant that needs no debuginfo)
 *
 * Context: as syscall.*.
 *
 * Description: The same probe as syscall.*, with the same variables:
 * both need only the kernel's symbols here.
 */

/**
 * probe nd_syscall.*.return - return from the * system call (the
 * variant that needs no debuginfo)
 *
 * Context: as syscall.*.return.
 *
 * Description: The same probe as syscall.*.return, with the same
 * variables (name, retval, retstr).
 */
'''


def lab_kernels(lab):
    """The kernels of the lab's lines: LAB/kver (the default line) and
    LAB/lines/* (one KVER per file), oldest first."""
    kvers = set()
    for f in [os.path.join(lab, 'kver')] + [os.path.join(lab, 'lines', n) for n in
                                            sorted(os.listdir(os.path.join(lab, 'lines')))]:
        kvers.add(open(f).read().strip())
    key = lambda k: [int(x) if x.isdigit() else x for x in re.split(r'[.+-]', k)]
    return sorted(kvers, key=key)


def kernel_facts(kver, lab):
    """(system call table, prototypes, symbols, common headers) of one kernel"""
    headers = '/usr/src/linux-headers-' + kver
    common = re.sub(r'-[a-z0-9]+-amd64$', '-common', headers)
    protos = parse_prototypes(os.path.join(common, 'include/linux/syscalls.h'))
    table = syscall_table(os.path.join(headers, 'arch/x86/include/generated/asm/syscalls_64.h'))
    return table, protos, kernel_symbols(os.path.join(lab, kver), kver), common


def union_calls(kvers, lab):
    """{call: {nr, args, kvers}} over the kernels: each call once, with
    its number and arguments, which must agree wherever it exists."""
    calls = {}
    for kver in kvers:
        table, protos, syms, _ = kernel_facts(kver, lab)
        for nr, call in table:
            if '__x64_sys_' + call not in syms:
                sys.stderr.write('gen-syscalls: no __x64_sys_%s in %s, skipped\n'
                                 % (call, kver))
                continue
            args = OVERRIDES.get(call, protos.get(call))
            if args is None:
                sys.exit('gen-syscalls: no usable prototype of sys_%s in %s; add it '
                         'to OVERRIDES' % (call, kver))
            pname = PROBE_NAMES.get(call, call)
            c = calls.get(call)
            if c is None:
                calls[call] = {'nr': nr, 'args': args, 'kvers': [kver]}
                continue
            if c['nr'] != nr or gen_entry(call, pname, args) != gen_entry(call, pname, c['args']):
                sys.exit('gen-syscalls: %s differs between %s and %s (number or '
                         'argument variables); the tapset cannot serve both'
                         % (call, c['kvers'][0], kver))
            c['kvers'].append(kver)
    return calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--kver', action='append',
                    help='a kernel to cover (repeat it; default: every lab line)')
    ap.add_argument('--lab', default=os.environ.get('STAP_LAB_DIR', '/var/cache/stap-lab'))
    ap.add_argument('--out', default=os.path.join(os.path.dirname(__file__), '..'))
    a = ap.parse_args()
    kvers = a.kver or lab_kernels(a.lab)
    calls = union_calls(kvers, a.lab)

    hdr = ('// Generated by tapset/linux/gen/gen-syscalls.py from the facts of '
           'kernels\n// %s:\n// their x86-64 system call tables, __x64_sys_* '
           'symbols and include/linux/syscalls.h.\n// Do not edit; regenerate with '
           'tapset/linux/gen/gen-syscalls.py (cmd/tapset-syscalls-regen checks).\n'
           % ', '.join(kvers))
    sc = [hdr, '// %s: probe on entry to (and return from) the system call, via '
          'its x86-64\n// wrapper __x64_sys_NAME.  Entry probes set name, the '
          'arguments and argstr;\n// return probes name, retval and retstr.\n'
          % 'syscall.NAME', SC_DOC]
    nd = [hdr, '// nd_syscall.NAME: the syscall.NAME probes under the name of '
          'SystemTap\'s\n// variants without debuginfo (both need none '
          'here).\n', ND_DOC]
    for call, c in sorted(calls.items(), key=lambda kv: kv[1]['nr']):
        sym, args = '__x64_sys_' + call, c['args']
        pname = PROBE_NAMES.get(call, call)
        proto = ', '.join('%s %s' % t for t in args) or 'void'
        only = ('' if len(c['kvers']) == len(kvers)
                else '\n# (a system call of %s only)' % ', '.join(c['kvers']))
        sc.append('\n# %d %s(%s)%s\nprobe syscall.%s = kprobe.function("%s") ?\n{\n%s\n}\n'
                  'probe syscall.%s.return = kprobe.function("%s").return ?\n{\n'
                  '\tname = "%s"\n\tretval = returnval()\n\tretstr = return_str(%d, retval)\n}\n'
                  % (c['nr'], call, proto, only, pname, sym,
                     '\n'.join(gen_entry(call, pname, args)),
                     pname, sym, pname, 2 if call in HEX_RETURNS else 1))
        nd.append('probe nd_syscall.%s = syscall.%s { }\n'
                  'probe nd_syscall.%s.return = syscall.%s.return { }\n'
                  % (pname, pname, pname, pname))
    open(os.path.join(a.out, 'syscalls.stp'), 'w').write(''.join(sc))
    open(os.path.join(a.out, 'nd_syscalls.stp'), 'w').write(''.join(nd))
    commons = [kernel_facts(k, a.lab)[3] for k in kvers]
    gen_errno(commons, hdr, os.path.join(a.out, 'errno.stp'))
    gen_names([(c['nr'], call) for call, c in calls.items()], hdr,
              os.path.join(a.out, 'syscall_num.stp'))
    print('gen-syscalls: %d system calls over %s' % (len(calls), ', '.join(kvers)))


def gen_errno(commons, hdr, out):
    names = {}
    files = ('include/uapi/asm-generic/errno-base.h', 'include/uapi/asm-generic/errno.h',
             'include/linux/errno.h')
    for common, f in ((c, f) for c in commons for f in files):
        for m in re.finditer(r'#define\s+(E\w+)\s+(\d+)', open(os.path.join(common, f)).read()):
            names.setdefault(int(m.group(2)), m.group(1))
    top = max(names)
    rows = ''.join('\t\t[%d] = "%s",\n' % (n, names[n]) for n in sorted(names))
    open(out, 'w').write(hdr + '''// errno tapset: error numbers as names.

/**
 * sfunction errno_str - the name of error number ERR ("ENOENT" for 2;
 * the sign is ignored), "E" and the number when it has none
 * @err: the error number
 *
 * Context: any probe; it depends on its arguments only.
 */
function errno_str:string (err:long) %%{ /* pure */ /* unprivileged */
	static const char *const names[%d] = {
%s\t};
	s64 e = STAP_ARG_err < 0 ? -STAP_ARG_err : STAP_ARG_err;

	if (e > 0 && e < ARRAY_SIZE(names) && names[e])
		STAP_RETURN(names[e]);
	stp_sprintf(STAP_RETVALUE, "E%%lld", (long long)e);
%%}

/**
 * sfunction return_str - a function's return value RET as text: an error
 * (-1..-4095) as "-2 (ENOENT)", other values by FORMAT: 2 hex (0x1f),
 * 3 octal (037), else decimal
 * @format: 1 decimal, 2 hex, 3 octal
 * @ret: the value
 *
 * Context: any probe; it depends on its arguments only.
 */
function return_str:string (format:long, ret:long) {
	if (ret < 0 && ret >= -4095)
		return sprintf("%%d (%%s)", ret, errno_str(-ret))
	if (format == 2)
		return sprintf("0x%%x", ret)
	if (format == 3)
		return sprintf("%%#o", ret)
	return sprintf("%%d", ret)
}
''' % (top + 1, rows))


def gen_names(table, hdr, out):
    top = max(nr for nr, _ in table)
    rows = ''.join('\t[%d] = "%s",\n' % (nr, PROBE_NAMES.get(call, call))
                   for nr, call in sorted(table))
    open(out, 'w').write(hdr + '''// syscall_num tapset: x86-64 system call numbers and names.

%%{
/* stp_syscall_names - the native system call table's names by number */
static const char *const stp_syscall_names[%d] = {
%s};
%%}

/**
 * sfunction syscall_name - the name of native system call number NR
 * ("getppid" for 110), as syscall.NAME's name variable has it;
 * "syscall_NR" for a number the table does not have
 * @nr: the system call number
 *
 * Context: any probe; it depends on its arguments only.
 */
function syscall_name:string (nr:long) %%{ /* pure */ /* unprivileged */
	s64 n = STAP_ARG_nr;

	if (n >= 0 && n < ARRAY_SIZE(stp_syscall_names) && stp_syscall_names[n])
		STAP_RETURN(stp_syscall_names[n]);
	stp_sprintf(STAP_RETVALUE, "syscall_%%lld", (long long)n);
%%}

/**
 * sfunction syscall_num - the number of the native system call named
 * NAME, -1 if the table has none of that name
 * @name: the name, as syscall_name() gives it
 *
 * Context: any probe; it depends on its arguments only.
 */
function syscall_num:long (name:string) %%{ /* pure */ /* unprivileged */
	int i;

	for (i = 0; i < ARRAY_SIZE(stp_syscall_names); i++)
		if (stp_syscall_names[i] &&
		    !strcmp(stp_syscall_names[i], STAP_ARG_name))
			STAP_RETURN(i);
	STAP_RETURN(-1);
%%}
''' % (top + 1, rows))


if __name__ == '__main__':
    main()
