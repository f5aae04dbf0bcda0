#!/usr/bin/env python3
"""CPU per request of the sample service (`/front/call`: front's Jetty server span, its java.net.http
client span, back's server span), per process and per thread group, scenarios interleaved round by round.

Each round launches, for every scenario in turn (the order rotates from round to round), a fresh `back` and
`front`, drives `wrk -t1 -cC` at /front/call (with --pace-ms, each connection pausing between requests, so
that every scenario serves about the same rate and the CPU a request costs is not confounded by the rate)
for WARMUP seconds, then for SECONDS more while reading the CPU
time of each process (and of each of its threads, grouped by name) from /proc around that window. With
--profile, async-profiler (its Maven Central jar's library) samples each process over the measured window
only (attached through ApAttach.java) and writes collapsed stacks, one file per scenario, round and process.

Argus scenarios export to one collector started for the whole run (its CPU per span is reported too).

    python3 cpu_per_request.py --argus-home distribution/target/argus --rounds 10 \
        --scenarios baseline,default-0,default-100 [--agent NAME=path/argus-agent.jar ...] \
        [--profile /path/libasyncProfiler.so --profile-dir DIR] --out results.json

`--agent main=/tmp/main/argus/agent/argus-agent.jar` adds the scenarios main-0 and main-100, the same with
another build of the agent, for paired comparisons (`--baseline main-100`). Statistics per scenario against
the baseline (the rounds pair them): median of the per-round differences and ratios, a bootstrap 95%
interval of the median difference, and the Wilcoxon signed-rank p (exact up to 20 rounds).
"""
import argparse, glob, json, os, random, re, shutil, socket, statistics, subprocess, sys, tempfile, time
import urllib.request

from paired_stats import wilcoxon_p

HERE = os.path.dirname(os.path.abspath(__file__))
TICK = os.sysconf('SC_CLK_TCK')

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument('--argus-home', required=True)
p.add_argument('--rounds', type=int, default=10)
p.add_argument('--warmup', type=float, default=10)
p.add_argument('--seconds', type=float, default=15)
p.add_argument('--connections', type=int, default=4)
p.add_argument('--pace-ms', type=float, default=0,
               help='each connection waits this long between requests (wrk script delay), so every scenario '
                    'runs at about the same rate (connections / (pace + latency)), below its capacity; '
                    '0: closed loop at full speed')
p.add_argument('--scenarios', default='baseline,default-0,default-100')
p.add_argument('--baseline', default='baseline', help='the scenario the others are compared with')
p.add_argument('--agent', action='append', default=[], help='NAME=PATH: NAME-0 and NAME-100 with this agent jar')
p.add_argument('--agent-opt', action='append', default=[], help='a -D option for every Argus JVM')
p.add_argument('--jvm-opt', action='append', default=[], help='an option for every target JVM')
p.add_argument('--java', default='java')
p.add_argument('--profile', help="async-profiler's libasyncProfiler.so: profile each measured window")
p.add_argument('--profile-dir', default='profiles')
p.add_argument('--profile-event', default='cpu')
p.add_argument('--profile-interval', default='1000000', help='ns of CPU between samples (event cpu)')
p.add_argument('--flamegraph-rounds', type=int, default=1,
               help='with --profile: an HTML flame graph of each process too, in the first N rounds')
p.add_argument('--no-collector', action='store_true', help='Argus exports nowhere (argus.exporter.mode=discard)')
p.add_argument('--out', default='cpu_per_request.json')
a = p.parse_args()

home = os.path.abspath(a.argus_home)
lib = home + '/perf/lib'
cp = ':'.join(glob.glob(lib + '/argus-perf-tests-*.jar') + sorted(glob.glob(lib + '/jetty-*.jar'))
              + glob.glob(lib + '/slf4j-api*.jar'))
agents = {'': home + '/agent/argus-agent.jar'}
for spec in a.agent:
    name, path = spec.split('=', 1)
    agents[name] = os.path.abspath(path)


def scenario_flags(scenario):
    """JVM flags of a scenario: none for the baseline; NAME-0 / NAME-100 (default-* is the home's agent)."""
    if scenario == 'baseline':
        return None
    m = re.fullmatch(r'(.+)-(\d+)', scenario)
    if not m:
        sys.exit('unknown scenario ' + scenario)
    name, rate = m.group(1), m.group(2)
    jar = agents['' if name == 'default' else name]
    return ['-javaagent:' + jar, '-Dargus.tracing.samplingRate=' + rate] + a.agent_opt


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def cpu_ticks(pid):
    fields = open('/proc/%d/stat' % pid).read().rsplit(')', 1)[1].split()
    return int(fields[11]) + int(fields[12])


THREAD_GROUPS = [('exporter', r'^argus-exporter'), ('argus-other', r'^argus'), ('gc', r'^(GC |G1 |VM Thread|VM Periodic)'),
                 ('jit', r'^(C1 |C2 |Compiler)'), ('jetty', r'^qtp'), ('http-client', r'^HttpClient'),
                 ('other', r'.')]


def thread_ticks(pid):
    """CPU ticks per thread group (thread names from /proc/PID/task/TID/comm, 15 characters)."""
    out = {}
    for task in os.listdir('/proc/%d/task' % pid):
        try:
            name = open('/proc/%d/task/%s/comm' % (pid, task)).read().strip()
            fields = open('/proc/%d/task/%s/stat' % (pid, task)).read().rsplit(')', 1)[1].split()
        except OSError:
            continue
        ticks = int(fields[11]) + int(fields[12])
        for group, pattern in THREAD_GROUPS:
            if re.search(pattern, name):
                out[(group, task)] = ticks
                break
    return out


def group_delta(before, after):
    groups = {}
    for key, ticks in after.items():
        groups[key[0]] = groups.get(key[0], 0) + ticks - before.get(key, 0)
    return groups


def await_answer(url, deadline=120):
    t0 = time.monotonic()
    while time.monotonic() - t0 < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except Exception:
            time.sleep(0.05)
    raise RuntimeError('no answer from ' + url)


def wrk(url, seconds):
    pace = ['-s', pace_script] if pace_script else []
    out = subprocess.run(['wrk', '-t1', '-c%d' % a.connections, '-d%ds' % int(seconds)] + pace + [url],
                         capture_output=True, text=True).stdout
    m = re.search(r'(\d+) requests in', out)
    errors = re.search(r'Non-2xx or 3xx responses: (\d+)', out)
    if not m:
        raise RuntimeError('wrk said: ' + out)
    return int(m.group(1)), int(errors.group(1)) if errors else 0


attach_dir = None


def attach(pid, options):
    global attach_dir
    if attach_dir is None:
        attach_dir = tempfile.mkdtemp(prefix='apattach')
        subprocess.run(['javac', '-d', attach_dir, os.path.join(HERE, 'ApAttach.java')], check=True)
    subprocess.run([a.java, '-cp', attach_dir, 'ApAttach', str(pid), os.path.abspath(a.profile), options],
                   check=True, capture_output=True)


def launch(scenario, name, port, extra, collector):
    flags = scenario_flags(scenario)
    agent = []
    if flags is not None:
        agent = flags + ['-Dargus.service.name=' + name]
        agent += ['-Dargus.exporter.mode=discard'] if collector is None else ['-Dargus.collector.address=' + collector]
    cmd = ([a.java, '-Xms256m', '-Xmx256m', '-XX:+UseG1GC'] + a.jvm_opt + agent
           + ['-cp', cp, 'io.argus.perf.sample.SampleService', '--name', name, '--port', str(port)] + extra)
    log = open(os.path.join(workdir, '%s-%s.log' % (scenario, name)), 'a')
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)


def one(scenario, rnd, collector_proc, collector):
    bport, fport = free_port(), free_port()
    back = launch(scenario, 'back', bport, [], collector)
    front = launch(scenario, 'front', fport, ['--downstream', 'http://127.0.0.1:%d' % bport], collector)
    try:
        await_answer('http://127.0.0.1:%d/back/ping' % bport)
        await_answer('http://127.0.0.1:%d/front/ping' % fport)
        url = 'http://127.0.0.1:%d/front/call' % fport
        wrk(url, a.warmup)
        procs = {'front': front.pid, 'back': back.pid}
        if collector_proc is not None and scenario_flags(scenario) is not None:
            procs['collector'] = collector_proc.pid
        if a.profile:
            for pname in ('front', 'back'):
                attach(procs[pname], 'start,event=%s,interval=%s,threads' % (a.profile_event, a.profile_interval))
        load_before = os.getloadavg()[0]
        before = {k: cpu_ticks(pid) for k, pid in procs.items()}
        threads_before = {k: thread_ticks(procs[k]) for k in ('front', 'back')}
        t0 = time.monotonic()
        requests, errors = wrk(url, a.seconds)
        wall = time.monotonic() - t0
        after = {k: cpu_ticks(pid) for k, pid in procs.items()}
        threads = {k: group_delta(threads_before[k], thread_ticks(procs[k])) for k in ('front', 'back')}
        if a.profile:
            for pname in ('front', 'back'):
                out = os.path.join(a.profile_dir, '%s-r%02d-%s.collapsed' % (scenario, rnd, pname))
                if rnd < a.flamegraph_rounds:
                    html = os.path.join(a.profile_dir, '%s-r%02d-%s.html' % (scenario, rnd, pname))
                    attach(procs[pname], 'dump,file=%s,flamegraph' % os.path.abspath(html))
                attach(procs[pname], 'stop,file=%s,collapsed' % os.path.abspath(out))
        result = {'scenario': scenario, 'round': rnd, 'requests': requests, 'errors': errors, 'wall_s': wall,
                  'rps': requests / wall, 'load_before': load_before, 'load_after': os.getloadavg()[0]}
        for k in procs:
            result[k + '_us_per_request'] = (after[k] - before[k]) * 1e6 / TICK / requests
        for k, groups in threads.items():
            result[k + '_threads_us_per_request'] = {g: t * 1e6 / TICK / requests for g, t in groups.items()}
        if 'collector' in procs:
            result['collector_us_per_span'] = result['collector_us_per_request'] / 3
        return result
    finally:
        for proc in (front, back):
            proc.kill()
            proc.wait()


def bootstrap_median_ci(values, reps=5000):
    rng = random.Random(42)
    meds = sorted(statistics.median(rng.choice(values) for _ in values) for _ in range(reps))
    return meds[int(0.025 * reps)], meds[int(0.975 * reps) - 1]


def summarize(results, scenarios, baseline):
    by = {}
    for r in results:
        by.setdefault(r['scenario'], {})[r['round']] = r
    lines = []
    keys = [('front', 'front_us_per_request'), ('back', 'back_us_per_request'), ('both', None)]
    lines.append('| scenario | process | µs CPU / request (median) | − %s (median of paired differences, 95%% CI) '
                 '| ratio | p (Wilcoxon) | rounds |' % baseline)
    lines.append('|---|---|---:|---:|---:|---:|---:|')
    summary = {}
    for s in scenarios:
        for label, key in keys:
            vals, diffs, ratios = [], [], []
            for rnd, r in by.get(s, {}).items():
                v = r['front_us_per_request'] + r['back_us_per_request'] if key is None else r[key]
                vals.append(v)
                b = by.get(baseline, {}).get(rnd)
                if b is not None and s != baseline:
                    bv = b['front_us_per_request'] + b['back_us_per_request'] if key is None else b[key]
                    diffs.append(v - bv)
                    ratios.append(v / bv)
            if not vals:
                continue
            row = {'median': statistics.median(vals), 'n': len(vals)}
            cell = '–'
            if diffs:
                lo, hi = bootstrap_median_ci(diffs)
                row.update(diff=statistics.median(diffs), diff_ci=[lo, hi], ratio=statistics.median(ratios),
                           p=wilcoxon_p(diffs))
                cell = '%+.1f (%+.1f … %+.1f) | ×%.3f | %.3g' % (row['diff'], lo, hi, row['ratio'], row['p'])
            else:
                cell = '– | – | –'
            summary['%s/%s' % (s, label)] = row
            lines.append('| %s | %s | %.1f | %s | %d |' % (s, label, row['median'], cell, len(vals)))
    # thread groups and the collector
    lines.append('')
    lines.append('| scenario | process | ' + ' | '.join(g for g, _ in THREAD_GROUPS) + ' | collector µs/span | rps | load |')
    lines.append('|---|---|' + '---:|' * (len(THREAD_GROUPS) + 3))
    for s in scenarios:
        rs = list(by.get(s, {}).values())
        if not rs:
            continue
        for proc in ('front', 'back'):
            cells = []
            for g, _ in THREAD_GROUPS:
                cells.append('%.1f' % statistics.median(r[proc + '_threads_us_per_request'].get(g, 0) for r in rs))
            coll = [r['collector_us_per_span'] for r in rs if 'collector_us_per_span' in r]
            lines.append('| %s | %s | %s | %s | %.0f | %.1f-%.1f |' % (
                s, proc, ' | '.join(cells), '%.1f' % statistics.median(coll) if coll and proc == 'front' else '–',
                statistics.median(r['rps'] for r in rs), min(r['load_before'] for r in rs),
                max(r['load_after'] for r in rs)))
    return '\n'.join(lines), summary


scenarios = a.scenarios.split(',')
workdir = tempfile.mkdtemp(prefix='cpureq')
pace_script = None
if a.pace_ms > 0:
    # wrk calls delay() before each request of a connection
    pace_script = os.path.join(workdir, 'pace.lua')
    with open(pace_script, 'w') as f:
        f.write('function delay()\n  return %g\nend\n' % a.pace_ms)
if a.profile:
    os.makedirs(a.profile_dir, exist_ok=True)
collector_proc, collector = None, None
if not a.no_collector and any(scenario_flags(s) is not None for s in scenarios):
    ingest = free_port()
    collector_cp = home + '/collector/lib/*'
    collector_proc = subprocess.Popen(
        [a.java, '-Xmx512m', '-cp', collector_cp, 'io.argus.collector.CollectorMain', '--ingest-port', str(ingest),
         '--http-port', str(free_port()), '--otlp-http-port', str(free_port()), '--data-dir', workdir + '/data'],
        stdout=open(workdir + '/collector.log', 'w'), stderr=subprocess.STDOUT)
    collector = '127.0.0.1:%d' % ingest
    time.sleep(3)
results = []
try:
    for rnd in range(a.rounds):
        order = scenarios[rnd % len(scenarios):] + scenarios[:rnd % len(scenarios)]
        for s in order:
            r = one(s, rnd, collector_proc, collector)
            results.append(r)
            print('round %d %-12s front %6.1f back %6.1f µs/req %s rps %.0f load %.1f' % (
                rnd, s, r['front_us_per_request'], r['back_us_per_request'],
                ('collector %.1f µs/span' % r['collector_us_per_span']) if 'collector_us_per_span' in r else '',
                r['rps'], r['load_after']), flush=True)
        json.dump({'args': vars(a), 'results': results}, open(a.out, 'w'), indent=1)
finally:
    if collector_proc is not None:
        collector_proc.kill()
        collector_proc.wait()
table, summary = summarize(results, scenarios, a.baseline)
json.dump({'args': vars(a), 'results': results, 'summary': summary}, open(a.out, 'w'), indent=1)
print(table)
shutil.rmtree(workdir, ignore_errors=True)
