#!/usr/bin/env bash
# Argus end to end on embedded defaults: builds the distribution, starts the collector
# (ingest 127.0.0.1:9898, HTTP 127.0.0.1:9897), starts the sample front and back services with
# the agent at 100% sampling, sends traffic, and prints the traces and metrics the collector got.
# Everything keeps running until Ctrl-C (or pass --exit to stop right after the summary).
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
EXIT_AFTER=false
REQUESTS=${REQUESTS:-50}
[[ "${1:-}" == "--exit" ]] && EXIT_AFTER=true

HOME_DIR=$ROOT/distribution/target/argus
WORK=$ROOT/target/demo
INGEST=9898 HTTP=9897 BACK=18081 FRONT=18080

echo "== building (mvn -DskipTests install) =="
mvn -B -q -DskipTests install

mkdir -p "$WORK"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

wait_for() { # url, what
  for _ in $(seq 1 300); do curl -sf -o /dev/null "$1" && return 0; sleep 0.2; done
  echo "timed out waiting for $2 ($1)"; exit 1
}

echo "== starting the collector (data in $WORK/data) =="
"$HOME_DIR/collector/bin/argus-collector" --ingest-port $INGEST --http-port $HTTP --otlp-http-port 0 --otlp-grpc-port 0 --data-dir "$WORK/data" \
  > "$WORK/collector.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$HTTP/api/services" "the collector"

start_service() { # name port [downstream]
  local args=(--name "$1" --port "$2")
  [[ -n "${3:-}" ]] && args+=(--downstream "$3")
  java -javaagent:"$HOME_DIR/agent/argus-agent.jar" -Dargus.service.name="$1" \
    -Dargus.tracing.samplingRate=100 -Dargus.metrics.interval=2s \
    -cp "$HOME_DIR/perf/lib/*" io.argus.perf.sample.SampleService "${args[@]}" > "$WORK/$1.log" 2>&1 &
  PIDS+=($!)
}
echo "== starting back (:$BACK) and front (:$FRONT) with the agent at 100% sampling =="
start_service back $BACK
wait_for "http://127.0.0.1:$BACK/back/ping" "back"
start_service front $FRONT "http://127.0.0.1:$BACK"
wait_for "http://127.0.0.1:$FRONT/front/ping" "front"
grep -h '^\[argus\]' "$WORK/front.log" "$WORK/back.log" || true

echo "== sending $REQUESTS requests to /front/call =="
for _ in $(seq 1 "$REQUESTS"); do curl -sf -o /dev/null "http://127.0.0.1:$FRONT/front/call"; done

python3 - "$HTTP" "$REQUESTS" <<'PY'
import json, sys, time, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
sent = int(sys.argv[2])
get = lambda p: json.load(urllib.request.urlopen(base + p))

def complete_call_traces():
    return [t for t in get(f"/api/traces?service=front&limit={sent + 20}")
            if t["rootName"] == "GET /front/call" and t["spanCount"] == 3]

deadline = time.time() + 30
while len(complete_call_traces()) < sent and time.time() < deadline:
    time.sleep(0.5)
stored = len(complete_call_traces())
print("\n== services ==")
for s in get("/api/services"):
    print(f"  {s['service']:<8} instances={len(s['instances'])}")
traces = get("/api/traces?service=front&limit=5")
print(f"\n== newest traces of front ({len(traces)} shown) ==")
for t in traces:
    print(f"  {t['traceId']}  {t['rootName']:<18} {t['durationMs']:8.2f} ms  {t['spanCount']} spans")
if traces:
    trace = get("/api/traces/" + traces[0]["traceId"])
    spans = {s["spanId"]: s for s in trace["spans"]}
    children = {}
    for s in trace["spans"]:
        children.setdefault(s["parentSpanId"], []).append(s)
    print(f"\n== trace {trace['traceId']} ==")
    def show(span, depth):
        print(f"  {'  ' * depth}{span['service']:<6} {span['kind']:<7} {span['name']:<20} "
              f"{span['durationNanos'] / 1e6:8.2f} ms  {span['status']}")
        for child in sorted(children.get(span["spanId"], []), key=lambda s: s["startEpochNanos"]):
            show(child, depth + 1)
    for root in children.get(None, []):
        show(root, 0)
print("\n== HTTP metrics ==")
for svc in ("front", "back"):
    for m in get(f"/api/metrics/http?service={svc}"):
        print(f"  {svc:<6} {m['kind']:<6} {m['method']:<4} {m['target']:<16} {m['status']}  count={m['count']:<4} "
              f"avg={m['avgMs']:.2f}ms p95={m['p95Ms']:.2f}ms p99={m['p99Ms']:.2f}ms errors={m['errors']}")
print("\n== JVM (front, latest) ==")
for inst in get("/api/metrics/jvm?service=front")["instances"]:
    latest = inst["latest"]
    print(f"  {inst['instance']}: heap used {latest.get('jvm.heap.used', 0) / 2**20:.1f} MiB, "
          f"threads {latest.get('jvm.threads.live', 0):.0f}, classes {latest.get('jvm.classes.loaded', 0):.0f}, "
          f"uptime {latest.get('jvm.uptime_ms', 0) / 1000:.1f} s")
print(f"""
Query it yourself:
  web UI           {base}/
  traces           {base}/api/traces?service=front&limit=20
  one trace        {base}/api/traces/<traceId>
  HTTP metrics     {base}/api/metrics/http?service=front
  JVM metrics      {base}/api/metrics/jvm?service=front
  collector        {base}/metrics   (Prometheus)
""")
if stored < sent:
    print(f"ERROR: the collector stored {stored} complete traces of GET /front/call for the {sent} requests sent")
    sys.exit(1)
print(f"All {sent} requests were traced end to end (front -> back), from the first.")
PY

if $EXIT_AFTER; then exit 0; fi
echo "Collector, front and back keep running; Ctrl-C stops them."
wait
