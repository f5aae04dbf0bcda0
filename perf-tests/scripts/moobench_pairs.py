#!/usr/bin/env python3
"""Paired MooBench runs of two or more agent builds, for finding which commit moved the collecting cost (C):
one JVM per build per round (`argus-moobench --configs T+I+C --runs 1 --depths none --agent-dir DIR`), the
builds alternating and the order flipping every round, then per build the median over the rounds of the
per-span median and mean (the harness's per-call figures at depth 10, divided by 10) and of the share of spans
the full queue dropped, and against the first build the median paired difference, ratio and Wilcoxon p.

The drop rate matters: a dropped span costs a failed offer, a queued one an offer the exporter thread then reads
from another core, so compare builds only at similar drop rates (a quiet machine keeps them at a few percent).

    python3 moobench_pairs.py --moobench distribution/target/argus/perf/bin/argus-moobench --rounds 6 \
        --out /tmp/pairs NEW=/path/agent-new OLD=/path/agent-old

An agent folder is a distribution's agent/ (argus-agent.jar, lib/, plugins/ with the method plugin); to build
one for an older commit: git worktree add --detach DIR COMMIT; mvn -q package -DskipTests -pl distribution -am.
"""
import argparse, os, re, statistics, subprocess

from paired_stats import wilcoxon_p

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument('--moobench', required=True)
p.add_argument('--rounds', type=int, default=6)
p.add_argument('--out', default='moobench-pairs')
p.add_argument('--config', default='T+I+C')
p.add_argument('builds', nargs='+', help='NAME=AGENT_DIR')
a = p.parse_args()
builds = [b.split('=', 1) for b in a.builds]
os.makedirs(a.out, exist_ok=True)
LINE = re.compile(r'depth 10 run 1: mean\s+([\d,\.]+) ns\s+median\s+([\d,\.]+) ns.*?measured half: ([\d\.]+)% dropped')
results = {name: {} for name, _ in builds}


def num(s):
    return float(s.replace(',', ''))


for rnd in range(a.rounds):
    order = builds if rnd % 2 == 0 else list(reversed(builds))
    for name, folder in order:
        out = os.path.join(a.out, '%s-%02d' % (name, rnd))
        text = subprocess.run([a.moobench, '--configs', a.config, '--runs', '1', '--depths', 'none',
                               '--agent-dir', folder, '--jvm-opt=-Dargus.startup.waitForInstrumentation=true',
                               '--out', out], capture_output=True, text=True).stdout
        m = LINE.search(text)
        if not m:
            print('round %d %s: no result (see %s)' % (rnd, name, out))
            continue
        results[name][rnd] = (num(m.group(1)) / 10, num(m.group(2)) / 10, num(m.group(3)))
        print('round %d %-10s mean %7.1f  median %6.1f ns/span  dropped %4.1f%%  load %s' % (
            (rnd, name) + results[name][rnd] + (open('/proc/loadavg').read().split()[0],)), flush=True)


first = builds[0][0]
print('\n| build | rounds | mean ns/span | median ns/span | dropped | median vs %s (paired diff, ratio, p) |' % first)
print('|---|---:|---:|---:|---:|---:|')
for name, _ in builds:
    rs = results[name]
    if not rs:
        continue
    cell = '—'
    if name != first:
        common = [r for r in rs if r in results[first]]
        if common:
            diffs = [rs[r][1] - results[first][r][1] for r in common]
            ratios = [rs[r][1] / results[first][r][1] for r in common]
            cell = '%+.1f ns, ×%.3f, p = %.3g' % (statistics.median(diffs), statistics.median(ratios), wilcoxon_p(diffs))
    print('| %s | %d | %.1f | %.1f | %.1f%% | %s |' % (
        name, len(rs), statistics.median(v[0] for v in rs.values()), statistics.median(v[1] for v in rs.values()),
        statistics.median(v[2] for v in rs.values()), cell))
