#!/usr/bin/env bash
# Speed budgets, natively (docs/PERFORMANCE.md; issue 4: a 50 MB Nsight Compute raw CSV
# analyses at >= 200 MB/s, raised to >= 400 MB/s by issue 15; issue 8): regenerates the inputs into target/bench-data/, times
# `roofline analyze` against Python's csv module reading the same file, measures the
# 10 MB / 100 MB / 1 GB curve with peak RSS (the 1 GB file lives in $TMPDIR and is deleted),
# runs the criterion benches, and prints one table: budget, measured median, pass/fail.
#
#   scripts/bench.sh              # everything (about 3 minutes after the first build)
#   BENCH_1GB=0 scripts/bench.sh  # skip the 1 GB point
#   BENCH_RUNS=9 scripts/bench.sh # more runs per median (default 5)
#   BENCH_BROWSER=0 scripts/bench.sh # skip the browser benchmarks (tests/bench/browser.mjs,
#                                    # scripts/lighthouse.mjs, the first-visit size)
#   BENCH_LIGHTHOUSE=0 scripts/bench.sh # skip Lighthouse only
#
# Needs only what scripts/lib.sh sets up (cargo) and python3. Exit status 1 if a budget fails.
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

RUNS="${BENCH_RUNS:-5}"
WITH_1GB="${BENCH_1GB:-1}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
DATA="$ROOT/target/bench-data"
SAMPLE="$ROOT/../shared/samples/ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv"
BROWSER_RESULTS="${BROWSER_RESULTS:-$ROOT/tests/bench/results.md}"
LIGHTHOUSE_RESULTS="${LIGHTHOUSE_RESULTS:-$ROOT/tests/bench/lighthouse.md}"
SIZE_RESULTS="$ROOT/target/bench-data/size.txt"
BIG="${TMPDIR:-/tmp}/roofline-bench-1GB.$$.csv"
trap 'rm -f "$BIG"' EXIT

[ -f "$SAMPLE" ] || { echo "bench.sh: the raw-page sample is missing: $SAMPLE (shared/ beside the clone)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench.sh: python3 is needed (the baseline and the timing)" >&2; exit 2; }

say "building roofline and the generator (release)"
cargo build --quiet --release -p roofline-cli
cargo build --quiet --release -p roofline-engine --example make_big_ncu
ROOFLINE="$TARGET/release/roofline"
GEN="$TARGET/release/examples/make_big_ncu"

say "generating inputs into target/bench-data/"
mkdir -p "$DATA"
for mb in 10 50 100; do
    "$GEN" "$SAMPLE" "$DATA/ncu_raw_${mb}MB.csv" "$mb" >/dev/null
done
if [ "$WITH_1GB" = 1 ]; then
    "$GEN" "$SAMPLE" "$BIG" 1000 >/dev/null
fi

say "criterion benches (modest sample sizes)"
CRITERION_HOME="$DATA/criterion" cargo bench --quiet -p roofline-engine --bench import --bench model 2>&1 |
    grep -E '^[a-z_0-9]+/|time:|thrpt:' || true

if [ "${BENCH_BROWSER:-1}" = 1 ]; then
    say "browser benchmark (release build in headless Chromium)"
    ensure_build_tools
    ensure_chromium
    build_site "/roofline/" >/dev/null
    node "$ROOT/scripts/size-budget.mjs" "$ROOT/dist" > "$SIZE_RESULTS" || true
    curve=("$DATA/ncu_raw_10MB.csv" "$DATA/ncu_raw_100MB.csv")
    [ "$WITH_1GB" = 1 ] && curve+=("$BIG")
    BENCH_RUNS="$RUNS" node "$ROOT/tests/bench/browser.mjs" "$DATA/ncu_raw_50MB.csv" "$BROWSER_RESULTS" "${curve[@]}" || echo "bench.sh: the browser benchmark failed" >&2
    if [ "${BENCH_LIGHTHOUSE:-1}" = 1 ]; then
        say "Lighthouse (mobile, simulated throttling) on the release build"
        BENCH_RUNS="${LIGHTHOUSE_RUNS:-3}" node "$ROOT/scripts/lighthouse.mjs" "$ROOT/dist" "$LIGHTHOUSE_RESULTS" || echo "bench.sh: Lighthouse failed" >&2
    fi
fi

say "timing the CLI and the Python baseline ($RUNS runs each)"
python3 - "$ROOFLINE" "$DATA" "$RUNS" "$BIG" "$WITH_1GB" "$BROWSER_RESULTS" "$LIGHTHOUSE_RESULTS" "$SIZE_RESULTS" "${BENCH_BROWSER:-1}" <<'PY'
import datetime, json, os, re, statistics, subprocess, sys, time

roofline, data, runs, big, with_1gb, browser, lighthouse, size_file, with_browser = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5] == "1", sys.argv[6], sys.argv[7], sys.argv[8], sys.argv[9] == "1"
PY_CSV = "import csv,sys; sum(1 for _ in csv.reader(open(sys.argv[1], newline='')))"

def run(cmd):
    """Wall seconds, CPU seconds (user + sys) and peak RSS (MB) of one run."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"bench.sh: {' '.join(cmd)} failed")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024

def median_of(cmd, n=runs):
    rs = [run(cmd) for _ in range(n)]
    return tuple(statistics.median(r[i] for r in rs) for i in range(3))

def mb(path):
    return os.path.getsize(path) / 1e6

rows, failed = [], False
def row(budget, measured, ok):
    global failed
    verdict = "info" if ok is None else ("PASS" if ok else "FAIL")
    failed |= ok is False
    rows.append((budget, measured, verdict))

f50 = os.path.join(data, "ncu_raw_50MB.csv")
wall, cpu, rss = median_of([roofline, "analyze", f50])
py_wall, py_cpu, py_rss = median_of(["python3", "-c", PY_CSV, f50])
row("roofline analyze, 50 MB ncu raw CSV: >= 400 MB/s", f"{mb(f50) / wall:.0f} MB/s ({wall * 1e3:.0f} ms wall, {cpu * 1e3:.0f} ms CPU, {rss:.0f} MB RSS)", mb(f50) / wall >= 400)
row("Python csv.reader, same file (baseline)", f"{mb(f50) / py_wall:.0f} MB/s ({py_wall * 1e3:.0f} ms wall, {py_cpu * 1e3:.0f} ms CPU)", None)
row("roofline vs Python csv: >= 5x faster", f"{py_wall / wall:.1f}x wall, {py_cpu / max(cpu, 1e-9):.1f}x CPU", py_wall / wall >= 5)

curve = []
points = [("10 MB", os.path.join(data, "ncu_raw_10MB.csv")), ("100 MB", os.path.join(data, "ncu_raw_100MB.csv"))]
if with_1gb:
    points.append(("1 GB", big))
for label, path in points:
    w, c, r = median_of([roofline, "analyze", path], runs if label != "1 GB" else 3)
    curve.append((label, mb(path), w, c, r))
    row(f"curve {label}", f"{w * 1e3:.0f} ms wall, {c * 1e3:.0f} ms CPU, {mb(path) / w:.0f} MB/s, peak RSS {r:.0f} MB", None)
if with_1gb:
    label, size, w, c, r = curve[-1]
    row("1 GB ncu raw CSV: peak RSS <= 256 MB", f"{r:.0f} MB", r <= 256)
    per_mb_100, per_mb_1g = curve[1][2] / curve[1][1], w / size
    row("cost linear in size: time/MB at 1 GB <= 1.5x time/MB at 100 MB", f"{per_mb_1g / per_mb_100:.2f}x", per_mb_1g <= 1.5 * per_mb_100)
else:
    row("1 GB point", "skipped (BENCH_1GB=0)", None)

def criterion(group, bench):
    path = os.path.join(data, "criterion", group, bench, "new", "estimates.json")
    try:
        with open(path) as f:
            return json.load(f)["median"]["point_estimate"] / 1e9
    except (OSError, KeyError, ValueError):
        return None

def bench_row(budget, group, bench, size_mb=None, budget_mb_s=None):
    s = criterion(group, bench)
    if s is None:
        row(budget, "no criterion result", False)
    elif size_mb is None:
        row(budget, f"{s * 1e3:.1f} ms", None)
    else:
        row(budget, f"{size_mb / s:.0f} MB/s ({s * 1e3:.2f} ms)", None if budget_mb_s is None else size_mb / s >= budget_mb_s)

bench_row("load_dataset, 50 MB ncu raw in memory (criterion): >= 200 MB/s", "ncu_raw_50MB", "load_dataset", mb(f50), 200)
bench_row("DatasetBuilder, 50 MB in 1 MiB chunks (criterion): >= 200 MB/s", "ncu_raw_50MB", "streamed_1MiB", mb(f50), 200)
bench_row("load_dataset, ncu details sample 34 kB (criterion)", "ncu_details", "nsightful_34kB", 34541 / 1e6)
bench_row("load_dataset, NERSC 5-file details run 1.7 MB (criterion)", "ncu_details", "nersc_run_5_files", 1671690 / 1e6)
bench_row("model + guidance, 10,000 kernels (criterion)", "model_10k_kernels", "analyze_with_guidance")

def include(path, what):
    """Rows of a markdown table `budget | target | measured | result` written by this run."""
    global failed
    if not with_browser or not os.path.exists(path):
        rows.append((what, f"(not run: {os.path.relpath(path)})", "-"))
        return
    with open(path) as f:
        for line in f:
            if line.startswith("|") and "---" not in line:
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if len(cells) >= 4 and cells[0].lower() != "budget":
                    rows.append((f"{cells[0]}: {cells[1]}", cells[2], cells[3].upper()))
                    failed |= cells[3] == "FAIL"

include(browser, "browser (tests/bench/browser.mjs)")
include(lighthouse, "Lighthouse (scripts/lighthouse.mjs)")
if with_browser and os.path.exists(size_file):
    text = open(size_file).read()
    m = re.search(r"first visit \(a shared link's first chart\): (\d+) bytes", text)
    app = re.search(r"the app \(a page without a link, up to the working app\): (\d+) bytes", text)
    later = re.search(r"loaded on first use: (\d+) bytes", text)
    if m:
        n = int(m.group(1))
        rest = f"; the app: {int(app.group(1)):,} B" if app else ""
        row("first visit (what the first chart needs: wasm + js + css, gzip -9): <= 300 KB", f"{n:,} B ({n / 1024:.0f} KB){rest}; loaded on first use: {int(later.group(1)) if later else 0:,} B", n <= 300 * 1024)

w0 = max(len(r[0]) for r in rows)
w1 = max(len(r[1]) for r in rows)
print(f"\n{datetime.date.today().isoformat()}: medians of {runs} runs unless a row says otherwise")
print(f"{'budget':<{w0}}  {'measured (median)':<{w1}}  result")
print(f"{'-' * w0}  {'-' * w1}  ------")
for b, m, v in rows:
    print(f"{b:<{w0}}  {m:<{w1}}  {v}")
print(f"\nmachine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the end (other work on the machine inflates wall times)")
sys.exit(1 if failed else 0)
PY
