#!/usr/bin/env python3
"""Start-up of the sample service's two processes, `front` started a fixed delay after `back` is up.

Launches back (and waits for its ready answer and, with an Argus scenario, for the agent's start line),
sleeps DELAY seconds, launches front and times it from spawn to its first answer on /front/ping; both
processes are then killed. Scenarios are interleaved, N launches each; prints the medians, the ratios
to the baseline and a two-sided Mann-Whitney p (normal approximation with tie ranks).

    python3 startup_pair.py --argus-home distribution/target/argus --runs 16 --delay 3 \
        --scenarios baseline,empty,jvm-only,default-0,early-fields [--agent-jar NAME=PATH ...]

`empty` needs --empty-agent (a jar whose premain returns at once). A collector should listen on
127.0.0.1:9898, as in the harness. Ports 18201/18202 must be free.
"""
import argparse, glob, math, os, re, statistics, subprocess, time, urllib.request

p = argparse.ArgumentParser()
p.add_argument('--argus-home', required=True)
p.add_argument('--runs', type=int, default=16)
p.add_argument('--delay', type=float, default=3.0)
p.add_argument('--scenarios', default='baseline,jvm-only,default-0')
p.add_argument('--empty-agent')
p.add_argument('--agent-jar', action='append', default=[], help='NAME=PATH: default-0 with another agent build')
a = p.parse_args()

lib = a.argus_home + '/perf/lib'
cp = ':'.join(glob.glob(lib + '/argus-perf-tests-*.jar') + sorted(glob.glob(lib + '/jetty-*.jar'))
              + glob.glob(lib + '/slf4j-api*.jar'))
agent = a.argus_home + '/agent/argus-agent.jar'
# as the harness's scenarios: jvm-only switches every plugin off but jvm; sampling defaults to 0
plugins = [re.sub(r'^argus-plugin-(.+)\.jar$', r'\1', os.path.basename(j))
           for j in glob.glob(a.argus_home + '/agent/plugins/argus-plugin-*.jar')]
scenarios = {'baseline': [],
             'jvm-only': ['-javaagent:' + agent] + ['-Dargus.plugin.%s.enabled=false' % n for n in plugins if n != 'jvm'],
             'default-0': ['-javaagent:' + agent],
             'no-early-fields': ['-javaagent:' + agent, '-Dargus.startup.earlyFields=false'],
             'early-fields': ['-javaagent:' + agent, '-Dargus.startup.earlyFields=true']}
if a.empty_agent:
    scenarios['empty'] = ['-javaagent:' + a.empty_agent]
for spec in a.agent_jar:
    name, path = spec.split('=', 1)
    scenarios[name] = ['-javaagent:' + path]


def command(scenario, name, port, extra):
    service = ['-Dargus.service.name=' + name] if 'argus-agent' in ' '.join(scenarios[scenario]) else []
    return (['java', '-Xms256m', '-Xmx256m', '-XX:+UseG1GC'] + scenarios[scenario] + service
            + ['-cp', cp, 'io.argus.perf.sample.SampleService', '--name', name, '--port', str(port)] + extra)


def cpu_ms(pid):
    fields = open('/proc/%d/stat' % pid).read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / 100


def await_ready(url, t0):
    while True:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return (time.monotonic() - t0) * 1000
        except Exception:
            time.sleep(0.005)


def launch(scenario):
    back = subprocess.Popen(command(scenario, 'back', 18201, []), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    back_ready = await_ready('http://127.0.0.1:18201/back/ping', time.monotonic())
    if 'argus-agent' in ' '.join(scenarios[scenario]):
        for line in back.stdout:
            if '[argus] Argus' in line:
                break
    time.sleep(a.delay)
    front = subprocess.Popen(command(scenario, 'front', 18202, ['--downstream', 'http://127.0.0.1:18201']),
                             stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    front_ready = await_ready('http://127.0.0.1:18202/front/ping', time.monotonic())
    front_cpu = cpu_ms(front.pid)
    for proc in (front, back):
        proc.kill()
        proc.wait()
    return back_ready, front_ready, front_cpu


def mann_whitney_p(x, y):
    pooled = sorted([(v, 0) for v in x] + [(v, 1) for v in y])
    rank, i = {}, 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            rank[k] = (i + j) / 2 + 1
        i = j + 1
    u = sum(rank[k] for k, (_, g) in enumerate(pooled) if g == 0) - len(x) * (len(x) + 1) / 2
    n1, n2 = len(x), len(y)
    z = (u - n1 * n2 / 2) / math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    return math.erfc(abs(z) / math.sqrt(2))


names = a.scenarios.split(',')
samples = {n: [] for n in names}
for run in range(a.runs):
    for n in names:
        samples[n].append(launch(n))
        print(n, ['%.0f' % v for v in samples[n][-1]], flush=True)
base = samples['baseline']
for n in names:
    line = '%-10s' % n
    for idx, label in ((0, 'back ready'), (1, 'front ready'), (2, 'front cpu')):
        mine = [s[idx] for s in samples[n]]
        theirs = [s[idx] for s in base]
        line += '  %s %.0f ms x%.2f' % (label, statistics.median(mine), statistics.median(mine) / statistics.median(theirs))
        if n != 'baseline':
            line += ' (p=%.3f)' % mann_whitney_p(mine, theirs)
    print(line)
