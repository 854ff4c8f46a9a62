#!/usr/bin/env python3
"""List Rust functions longer than N lines (default 80; signature to closing brace), outside
`#[cfg(test)]` items, tests/ and benches/. Usage: scripts/long-functions.py [N] [ROOT]"""
import os, re, sys
N = int(sys.argv[1]) if len(sys.argv) > 1 else 80
root = sys.argv[2] if len(sys.argv) > 2 else '.'
fn_re = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+"[^"]*"\s+)?fn\s+(\w+)')
for dp, dn, fns in os.walk(root):
    dn[:] = [d for d in dn if d not in ('target', '.git', 'tests', 'benches', 'node_modules')]
    for f in fns:
        if not f.endswith('.rs'): continue
        p = os.path.join(dp, f)
        raw = open(p, encoding='utf-8', errors='replace').read()
        raw = re.sub(r"'(\\.|[^'\\])'", "' '", raw)
        raw = re.sub(r'"(\\.|[^"\\])*"', '""', raw)
        raw = re.sub(r'//[^\n]*', '', raw)
        lines = raw.split('\n')
        i = 0
        in_test = None
        while i < len(lines):
            l = lines[i]
            if re.match(r'^\s*#\[cfg\(test\)\]', l):
                # skip the following item (mod tests)
                j = i + 1
                depth = 0; started = False
                while j < len(lines):
                    depth += lines[j].count('{') - lines[j].count('}')
                    if '{' in lines[j]: started = True
                    if started and depth <= 0: break
                    j += 1
                i = j + 1; continue
            m = fn_re.match(l)
            if m:
                # find body start
                j = i; depth = 0; started = False
                while j < len(lines):
                    s = lines[j]
                    if not started and ';' in s and '{' not in s: break
                    depth += s.count('{') - s.count('}')
                    if '{' in s: started = True
                    if started and depth <= 0: break
                    j += 1
                n = j - i + 1
                if started and n > N:
                    print(f'{n:4d} {p}:{i+1} {m.group(7)}')
            i += 1
