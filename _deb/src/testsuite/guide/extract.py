#!/usr/bin/env python3
"""testsuite/guide/extract.py: the code blocks of SystemTap's Beginners Guide.

Usage: extract.py GUIDE_DIR OUT_DIR

Reads every <pre class="programlisting"> and <pre class="screen"> block of
the guide's HTML pages (Debian's systemtap-doc) and writes, per block, an
id PAGE-N (N counts the page's blocks from 0) and a kind on a line of
OUT_DIR/manifest ("ID<TAB>KIND<TAB>NAME"), and its text to OUT_DIR/ID.stp
(a script or a fragment of one) or OUT_DIR/ID.sh (a stap command line):

  script    a probe, global or function declaration at the start of a line
  command   a shell line that runs stap (`stap ...`, `... | stap ...`)
  fragment  statements the guide's prose shows outside a probe (array
            element assignments, reads, aggregations): written wrapped in
            `probe begin { ... }`
  other     output, other programs' command lines, syntax templates

A script or fragment that indexes an array it never declares is a piece
of a larger script: `global NAME` is added for each such array; a
script of only functions or probe aliases gets a probe that calls each
function (with 0 or "" arguments) or names each alias.  NAME is
the file name the guide titles a script with (dropwatch.stp), or -.
"""
import html
import os
import re
import sys


def kind_of(text):
    code = re.sub(r'#[^\n]*|//[^\n]*|/\*.*?\*/', '', text, flags=re.S)
    if re.search(r'^(?!\s*#)(.*\|\s*)?\s*stap\s', text, re.M):
        return 'command'
    if re.search(r'^\s*(probe|global|function)\s', code, re.M):
        return 'script'
    if re.search(r'\w\s*\[[^\]]*\]', code) and re.search(r'=|\+\+|<<<', code) \
            and not re.search(r'_expression|_name\b|\b(then|class|import)\b', code):
        return 'fragment'
    return 'other'


def completed(body, kind):
    """@body as a script: a fragment wrapped in a probe, with a global
    declaration for each array indexed but not declared"""
    code = re.sub(r'#[^\n]*|//[^\n]*|/\*.*?\*/|"(\\.|[^"\\])*"', '', body,
                  flags=re.S)
    declared = set()
    for decl in re.findall(r'^\s*global\s+([^\n]*)', code, re.M):
        declared.update(re.findall(r'(?:^|,)\s*(\w+)', decl))
    arrays = [a for a in dict.fromkeys(re.findall(r'(?<![\w$@.])([A-Za-z_]\w*)\s*\[', code))
              if a not in declared]
    if kind == 'fragment':
        body = 'probe begin {\n' + body + '}\n'
    elif not re.search(r'^\s*probe\s+[^={]*\{', code, re.M):
        # only functions or probe aliases: a probe that uses each
        for alias in re.findall(r'^\s*probe\s+([\w.]+)\s*\+?=', code, re.M):
            body += 'probe %s {}\n' % alias
        for name, params in re.findall(r'^\s*function\s+(\w+)[^(]*\(([^)]*)\)',
                                       code, re.M):
            args = ['""' if p.strip().endswith(':string') else '0'
                    for p in params.split(',') if p.strip()]
            body += 'probe begin { %s(%s) }\n' % (name, ', '.join(args))
    if arrays:
        body = ''.join('global %s\n' % a for a in arrays) + body
    return body


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    rows = []
    for page in sorted(os.listdir(src)):
        if not page.endswith('.html'):
            continue
        text = open(os.path.join(src, page), encoding='utf-8').read()
        blocks = re.finditer(r'<pre class="(programlisting|screen)">(.*?)</pre>',
                             text, re.S)
        for n, m in enumerate(blocks):
            body = html.unescape(re.sub(r'<[^>]+>', '', m.group(2)))
            if not body.endswith('\n'):
                body += '\n'
            before = html.unescape(re.sub(r'<[^>]+>', ' ',
                                          text[max(0, m.start() - 400):m.start()]))
            title = re.search(r'([\w-]+\.stp)\s*$', before)
            ident = '%s-%d' % (page[:-5], n)
            kind = kind_of(body)
            ext = 'sh' if kind == 'command' else 'stp'
            if kind in ('script', 'fragment'):
                body = completed(body, kind)
            with open(os.path.join(out, ident + '.' + ext), 'w') as f:
                f.write(body)
            rows.append('%s\t%s\t%s\n' % (ident, kind,
                                          title.group(1) if title else '-'))
    with open(os.path.join(out, 'manifest'), 'w') as f:
        f.writelines(rows)


if __name__ == '__main__':
    main()
