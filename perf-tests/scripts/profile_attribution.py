#!/usr/bin/env python3
"""Where a request's CPU goes, per scenario, from the collapsed stacks cpu_per_request.py --profile wrote
(async-profiler, `threads`, one sample per INTERVAL ns of CPU) and the requests of each window.

    python3 profile_attribution.py --results results.json --profiles DIR [--interval 1000000] [--top 25]

Every sample goes to one category (first match on its thread, then its frames), counted in µs of CPU per
request: the agent's own frames (any io.argus frame but the sample service's, with everything it calls), the
exporter thread, GC and VM threads, the JIT, the JDK's HTTP client, Jetty, the rest. Then, per process, the
difference of each category to the baseline, and the agent's leaf-most frames by cost.
"""
import argparse, collections, glob, json, os, re, statistics

p = argparse.ArgumentParser()
p.add_argument('--results', required=True)
p.add_argument('--profiles', required=True)
p.add_argument('--interval', type=float, default=1_000_000, help='ns of CPU per sample')
p.add_argument('--baseline', default='baseline')
p.add_argument('--top', type=int, default=25)
a = p.parse_args()

AGENT = re.compile(r'(^|;)(io/argus/(?!perf/)|io\.argus\.(?!perf\.))')
CATEGORIES = [
    ('exporter thread', lambda t, s: t.startswith('argus-exporter')),
    ('other agent threads', lambda t, s: t.startswith('argus')),
    ('GC and VM threads', lambda t, s: re.match(r'(GC |G1 |VM Thread|VM Periodic|Service Thread)', t)),
    ('JIT', lambda t, s: re.match(r'(C1 |C2 |Compiler)', t)),
    ('agent frames (and their callees)', lambda t, s: AGENT.search(s)),
    ('JDK HTTP client', lambda t, s: 'jdk/internal/net/http' in s or 'java/net/http' in s),
    ('Jetty', lambda t, s: 'org/eclipse/jetty' in s),
    ('rest', lambda t, s: True),
]


def read(path):
    """(thread, stack) -> samples; the thread is the first frame, [name tid=N]."""
    out = collections.Counter()
    for line in open(path):
        stack, _, n = line.rstrip('\n').rpartition(' ')
        if not stack:
            continue
        first, _, rest = stack.partition(';')
        m = re.match(r'\[(.*?)( tid=\d+)?\]$', first)
        thread = m.group(1) if m else ''
        out[(thread, rest if m else stack)] += int(n)
    return out


def agent_leaf(stack):
    """The deepest agent frame of a stack, with the frame it called (what the agent's time went to)."""
    frames = stack.split(';')
    for i in range(len(frames) - 1, -1, -1):
        if AGENT.search(';' + frames[i]):
            callee = frames[i + 1] if i + 1 < len(frames) else '(self)'
            return frames[i], callee
    return None, None


results = json.load(open(a.results))['results']
per = collections.defaultdict(lambda: collections.defaultdict(list))   # (scenario, proc) -> category -> [µs/req]
leaves = collections.defaultdict(collections.Counter)                   # (scenario, proc) -> leaf -> µs summed
rounds = collections.Counter()
for r in results:
    for proc in ('front', 'back'):
        path = os.path.join(a.profiles, '%s-r%02d-%s.collapsed' % (r['scenario'], r['round'], proc))
        if not os.path.exists(path):
            continue
        rounds[(r['scenario'], proc)] += 1
        cats = collections.Counter()
        us = a.interval / 1000 / r['requests']
        for (thread, stack), n in read(path).items():
            for name, test in CATEGORIES:
                if test(thread, stack):
                    cats[name] += n * us
                    break
            if AGENT.search(stack) or thread.startswith('argus'):
                leaf, callee = agent_leaf(stack)
                key = ('[%s] ' % thread if thread.startswith('argus') else '') + (leaf or '(no agent frame)')
                leaves[(r['scenario'], proc)][(key, callee)] += n * us
        for name, _ in CATEGORIES:
            per[(r['scenario'], proc)][name].append(cats[name])
        per[(r['scenario'], proc)]['total (profiled)'].append(sum(cats.values()))

scenarios = sorted({s for s, _ in per}, key=lambda s: (s != a.baseline, s))
print('µs of CPU per request by category (median over rounds; difference to %s in brackets)\n' % a.baseline)
for proc in ('front', 'back'):
    cols = [s for s in scenarios if (s, proc) in per]
    print('| %s | %s |' % (proc, ' | '.join(cols)))
    print('|---|' + '---:|' * len(cols))
    for name in [c for c, _ in CATEGORIES] + ['total (profiled)']:
        cells = []
        for s in cols:
            v = statistics.median(per[(s, proc)][name])
            if s != a.baseline and (a.baseline, proc) in per:
                cells.append('%.1f (%+.1f)' % (v, v - statistics.median(per[(a.baseline, proc)][name])))
            else:
                cells.append('%.1f' % v)
        print('| %s | %s |' % (name, ' | '.join(cells)))
    print()
for (s, proc), counter in sorted(leaves.items()):
    if s == a.baseline:
        continue
    print('### %s, %s: the agent\'s deepest frames (µs per request, mean over %d rounds)\n' % (s, proc, rounds[(s, proc)]))
    print('| agent frame | calls into | µs/request |')
    print('|---|---|---:|')
    for (leaf, callee), v in counter.most_common(a.top):
        print('| `%s` | `%s` | %.2f |' % (leaf, callee, v / rounds[(s, proc)]))
    print()
