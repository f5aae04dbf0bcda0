#!/usr/bin/env python3
"""A small, self-contained SVG flame graph from collapsed stacks (async-profiler's `collapsed` output, as
cpu_per_request.py --profile writes them), for keeping in docs/: frames narrower than --min-percent are left
out, and thread frames ([name tid=N], from the `threads` option) are folded into their thread group unless
--keep-threads. Agent frames (io/argus, but not the sample service's io/argus/perf) are drawn red, the JDK's
HTTP client blue, Jetty green, the rest grey; each frame's tooltip gives its samples and share.

    python3 flame_svg.py --title "front, Argus 100%" --out front-100.svg a.collapsed [b.collapsed ...]
"""
import argparse, html, re

p = argparse.ArgumentParser()
p.add_argument('inputs', nargs='+')
p.add_argument('--out', required=True)
p.add_argument('--title', default='')
p.add_argument('--min-percent', type=float, default=0.3)
p.add_argument('--width', type=int, default=1200)
p.add_argument('--keep-threads', action='store_true')
a = p.parse_args()

GROUPS = [('[argus-exporter]', r'^argus-exporter'), ('[other agent threads]', r'^argus'),
          ('[GC and VM]', r'^(GC |G1 |VM Thread|VM Periodic|Service Thread)'), ('[JIT]', r'^(C1 |C2 |Compiler)'),
          ('[Jetty threads]', r'^qtp'), ('[HTTP client threads]', r'^HttpClient'), ('[other threads]', r'.')]


def thread_group(frame):
    m = re.match(r'\[(.*?)( tid=\d+)?\]$', frame)
    if not m:
        return None
    if a.keep_threads:
        return frame
    for label, pattern in GROUPS:
        if re.search(pattern, m.group(1)):
            return label
    return '[threads]'


root = {'n': 0, 'c': {}}
for path in a.inputs:
    for line in open(path):
        stack, _, n = line.rstrip('\n').rpartition(' ')
        if not stack:
            continue
        frames = stack.split(';')
        group = thread_group(frames[0])
        if group is not None:
            frames[0] = group
        node = root
        node['n'] += int(n)
        for f in frames:
            node = node['c'].setdefault(f, {'n': 0, 'c': {}})
            node['n'] += int(n)

total = root['n'] or 1
min_samples = total * a.min_percent / 100
ROW = 16
rects = []


def colour(name):
    if re.search(r'(^|/)io[/.]argus[/.](?!perf)', name):
        return '#e8603c'
    if 'net/http' in name:
        return '#5b8bd9'
    if 'eclipse/jetty' in name:
        return '#6bbf59'
    if name.startswith('['):
        return '#c9b458'
    return '#b8b8b8'


def walk(node, x, depth):
    for name, child in sorted(node['c'].items(), key=lambda kv: -kv[1]['n']):
        if child['n'] < min_samples:
            continue
        w = child['n'] * a.width / total
        rects.append((x, depth, w, name, child['n']))
        walk(child, x, depth + 1)
        x += w
    return x


walk(root, 0, 0)
depth = max((d for _, d, _, _, _ in rects), default=0) + 1
height = (depth + 2) * ROW
out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="11">'
       % (a.width, height),
       '<text x="4" y="12">%s (%d samples; frames under %.1f%% left out)</text>'
       % (html.escape(a.title), total, a.min_percent)]
for x, d, w, name, n in rects:
    y = height - (d + 1) * ROW
    label = name.split('/')[-1] if '/' in name else name
    chars = int(w / 7)
    text = html.escape(label[:chars - 1] + ('…' if len(label) > chars - 1 else '')) if chars > 3 else ''
    out.append('<g><title>%s: %d samples, %.2f%%</title><rect x="%.1f" y="%d" width="%.1f" height="%d" '
               'fill="%s" stroke="#fff" stroke-width="0.5"/><text x="%.1f" y="%d">%s</text></g>'
               % (html.escape(name), n, 100.0 * n / total, x, y, w, ROW - 1, colour(name), x + 2, y + 11, text))
out.append('</svg>')
open(a.out, 'w').write('\n'.join(out))
