#!/usr/bin/env python3
"""The agent's CPU per request by component, from the collapsed stacks cpu_per_request.py --profile wrote: each
sample of an application thread with an agent frame goes to the component of its deepest agent frame (metrics,
inbound headers, spans and ids, span queue, context carrying, HTTP client plugin, other); the exporter thread is a
component of its own. µs of CPU per request, mean over the rounds of each scenario and process.

    python3 agent_components.py --results results.json --profiles DIR [--interval 1000000]
"""
import argparse, collections, json, os, re

p = argparse.ArgumentParser()
p.add_argument('--results', required=True)
p.add_argument('--profiles', required=True)
p.add_argument('--interval', type=float, default=1_000_000)
a = p.parse_args()

AGENT = re.compile(r'^(io/argus/(?!perf/)|io\.argus\.(?!perf\.))')
COMPONENTS = [
    ('metrics (table, buckets, route)', r'metrics/|RouteNormalizer'),
    ('inbound headers', r'RequestHeaders|InboundContext|Tracer\.startInbound'),
    ('spans and ids', r'TraceIds|RecordedSpan|Tracer\.(startEntry|childOf|startClient|end|begin|newTrace)|Sampler'),
    ('span queue', r'jctools|SpanQueue'),
    ('context carrying', r'TraceContext|ContextRunnable|ContextCallable|ContextRecorder|Tracer\.(current|attach|detach)|ObjectField|plugin/executors'),
    ('HTTP client plugin', r'plugin/jdkhttp|ClientRecorder|ClientCalls'),
    ('server plugin and recorder', r'plugin/jetty|ServerRecorder|ServerCalls'),
    ('other', r'.'),
]
out = collections.defaultdict(lambda: collections.defaultdict(float))
rounds = collections.Counter()
for r in json.load(open(a.results))['results']:
    for proc in ('front', 'back'):
        path = os.path.join(a.profiles, '%s-r%02d-%s.collapsed' % (r['scenario'], r['round'], proc))
        if not os.path.exists(path):
            continue
        rounds[(r['scenario'], proc)] += 1
        us = a.interval / 1000 / r['requests']
        for line in open(path):
            stack, _, n = line.rstrip('\n').rpartition(' ')
            frames = stack.split(';')
            thread = frames[0]
            if thread.startswith('[argus-exporter'):
                out[(r['scenario'], proc)]['exporter thread'] += int(n) * us
                continue
            deepest = None
            for f in frames[1:]:
                if AGENT.search(f):
                    deepest = f
            if deepest is None:
                continue
            for name, pattern in COMPONENTS:
                if re.search(pattern, deepest):
                    out[(r['scenario'], proc)][name] += int(n) * us
                    break
keys = sorted(out)
names = [c for c, _ in COMPONENTS] + ['exporter thread']
print('| component | ' + ' | '.join('%s %s' % k for k in keys) + ' |')
print('|---|' + '---:|' * len(keys))
for name in names + ['total']:
    cells = []
    for k in keys:
        v = sum(out[k].values()) if name == 'total' else out[k].get(name, 0)
        cells.append('%.2f' % (v / rounds[k]))
    print('| %s | %s |' % (name, ' | '.join(cells)))
