#!/usr/bin/python3
"""bench/run: every workload with tracec and its peers, side by side.

Builds tracec-run (and tracec_bench_aot), then for each workload and each
thread count runs, interleaved, `rounds` times: tracec-run --benchmark on
the workload's module, and the peers (bench/harness/peers.py, with
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset so OpenBLAS picks its best
kernel). tracec's outputs of the first round are checked against every
peer that computes the same thing before any time counts. A time is the
median of the rounds' medians per call; a ratio is peer time / tracec
time (above 1: tracec is faster). Prints a table, writes bench.json and
ratios.png to --out.
"""

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import workloads as wl  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
PEER_ENV_UNSET = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def build(build_dir):
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        subprocess.run(["cmake", "-G", "Ninja", "-S", ROOT, "-B", build_dir,
                        "-DCMAKE_BUILD_TYPE=Release"], check=True)
    subprocess.run(["cmake", "--build", build_dir, "--target", "tracec-run",
                    "tracec_bench_aot_dynamic"], check=True)
    # Google Benchmark is optional: without it there is no AOT row.
    subprocess.run(["cmake", "--build", build_dir, "--target",
                    "tracec_bench_aot"], check=False)


def parse_duration(text):
    value, unit = text.split()
    return float(value) * UNITS[unit]


def parse_benchmark(stdout):
    """The report of tracec-run --benchmark (tools/tracec-run/Benchmark.cpp)."""
    out = {}
    for key in ("compile", "min", "median", "max"):
        m = re.search(r"^  %s +([0-9.]+ (?:s|ms|us|ns))(?: \((.*)\))?$" % key,
                      stdout, re.M)
        if not m:
            raise RuntimeError("no '%s' line in tracec-run's report:\n%s"
                               % (key, stdout))
        out[key + "_s"] = parse_duration(m.group(1))
        if key == "compile":
            out["compile_note"] = m.group(2) or ""
    return out


def tracec_has_threads_flag(tracec_run):
    help_text = subprocess.run([tracec_run, "--help"], capture_output=True,
                               text=True).stdout
    return re.search(r"^\s+--threads[ =<]", help_text, re.M) is not None


class Runner:
    def __init__(self, args):
        self.args = args
        self.tracec_run = os.path.join(args.build_dir, "bin", "tracec-run")
        self.aot_bench = os.path.join(args.build_dir, "bin", "tracec_bench_aot")
        self.aot_dynamic_bench = os.path.join(args.build_dir, "bin",
                                              "tracec_bench_aot_dynamic")
        self.fma_peak = os.path.join(args.build_dir, "bin",
                                     "tracec_bench_fma_peak")
        self.fma_peaks = {}
        self.traced = {}  # workload name -> traced module
        self.tmp = tempfile.mkdtemp(prefix="tracec-bench-")
        self.cache = os.path.join(self.tmp, "compile-cache")
        self.threads_flag = tracec_has_threads_flag(self.tracec_run)

    def tracec_env(self):
        env = dict(os.environ)
        env["TRACEC_CACHE_DIR"] = self.cache
        env.pop("TRACEC_DISABLE_CACHE", None)
        return env

    def peer_env(self, threads):
        env = {k: v for k, v in os.environ.items() if k not in PEER_ENV_UNSET}
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                    "MKL_NUM_THREADS"):
            env[var] = str(threads)
        return env

    def fma_peak_gflops(self, threads):
        """The machine's measured FMA peak on `threads` threads (bench/
        fma_peak.c), measured once per run; None without the program."""
        if threads not in self.fma_peaks:
            peak = None
            if os.path.exists(self.fma_peak):
                out = subprocess.run([self.fma_peak, str(threads)],
                                     capture_output=True, text=True)
                m = re.match(r"fma_peak_gflops (\S+)", out.stdout)
                peak = float(m.group(1)) if m else None
            self.fma_peaks[threads] = peak
        return self.fma_peaks[threads]

    def inputs_of(self, workload):
        d = os.path.join(self.tmp, "inputs", re.sub(r"\W+", "_", workload.name))
        if not os.path.isdir(d):
            os.makedirs(d)
            for i, a in enumerate(workload.inputs(np.random.default_rng(0))):
                np.save(os.path.join(d, "arg%d.npy" % i), a)
        return d

    def static_twin(self, workload):
        """The workload's module with its `?` leading dims fixed to
        workload.static_batch: the static compile of the same program."""
        path = os.path.join(self.tmp, "static-%s.mlir" % re.sub(
            r"\W+", "_", workload.name))
        if not os.path.exists(path):
            with open(self.module_of(workload)) as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(text.replace("tensor<?", "tensor<%d" % workload.static_batch))
        return path

    def module_of(self, workload):
        if workload.trace_args:
            return self.traced_module(workload)
        return os.path.normpath(os.path.join(ROOT, "bench", "workloads",
                                             workload.module))

    def traced_module(self, workload):
        """A Python workload's module, traced once per run by the tracec
        package of the build (its own compile at -O0: only the IR is
        used); sets workload.entry to the entry the trace named."""
        if workload.name not in self.traced:
            path = os.path.join(self.tmp, "traced-%s.mlir" % re.sub(
                r"\W+", "_", workload.name))
            env = dict(os.environ)
            env["PYTHONPATH"] = os.path.join(self.args.build_dir, "python")
            env["TRACEC_OPT_LEVEL"] = "0"
            env["TRACEC_DISABLE_CACHE"] = "1"
            cmd = ["/usr/bin/python3", os.path.join(
                ROOT, "bench", "workloads", workload.module)]
            cmd += list(workload.trace_args) + ["--out", path]
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
            if proc.returncode != 0:
                raise RuntimeError("%s failed:\n%s" % (" ".join(cmd),
                                                        proc.stderr))
            self.traced[workload.name] = path
            workload.entry = proc.stdout.split()[-1]
        return self.traced[workload.name]

    def run_tracec(self, workload, threads, outdir=None, calls=None,
                   extra_env=None, extra_args=(), module=None):
        module = module or self.module_of(workload)
        inputs = self.inputs_of(workload)
        n = len(os.listdir(inputs))
        cmd = [self.tracec_run, module, "--entry", workload.entry]
        cmd += ["--input=a%d=@%s" % (i, os.path.join(inputs, "arg%d.npy" % i))
                for i in range(n)]
        if calls is None and self.args.min_time < 0.5:
            calls = 5  # a smoke run: tracec-run's own default takes a second
        cmd += ["--benchmark" if calls is None else "--benchmark=%d" % calls]
        if outdir:
            cmd += ["--output-dir", outdir]
        if self.threads_flag:
            cmd += ["--threads", str(threads)]
        cmd += list(extra_args)
        env = self.tracec_env()
        env.update(extra_env or {})
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), proc.stderr))
        return parse_benchmark(proc.stdout)

    def run_peers(self, workload, threads, outdir):
        cmd = ["/usr/bin/python3", os.path.join(HERE, "peers.py"),
               "--workload", workload.name, "--inputs", self.inputs_of(workload),
               "--outputs", outdir, "--threads", str(threads),
               "--min-time", str(self.args.min_time)]
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              env=self.peer_env(threads))
        if proc.returncode != 0:
            raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), proc.stderr))
        return json.loads(proc.stdout)

    def run_gbench(self, name, threads):
        """Median real time per call of one tracec_bench_aot benchmark, in a
        process whose OpenMP default (the JIT's thread count) is `threads`."""
        env = self.tracec_env()
        env["OMP_NUM_THREADS"] = str(threads)
        proc = subprocess.run(
            [self.aot_bench, "--benchmark_filter=^%s$" % name,
             "--benchmark_format=json", "--benchmark_repetitions=5",
             "--benchmark_min_time=%g" % min(0.5, self.args.min_time),
             "--benchmark_report_aggregates_only=true"],
            capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr)
        for b in json.loads(proc.stdout)["benchmarks"]:
            if b.get("aggregate_name") == "median":
                return b["real_time"] * UNITS[b["time_unit"]]
        raise RuntimeError("no median for " + name)

    def gbench_rounds(self, name, threads, rounds):
        """run_gbench `rounds` times: (median, every round's time)."""
        times = [self.run_gbench(name, threads) for _ in range(rounds)]
        return statistics.median(times), times


def check(workload, tracec_dir, peer_dir, peer):
    """Whether tracec's results agree with `peer`'s: (ok, worst error)."""
    worst = 0.0
    i = 0
    while os.path.exists(os.path.join(peer_dir, "%s_result%d.npy" % (peer, i))):
        ref = np.load(os.path.join(peer_dir, "%s_result%d.npy" % (peer, i)))
        path = os.path.join(tracec_dir, "%s_result%d.npy" % (workload.entry, i))
        if not os.path.exists(path):
            return False, "tracec wrote no result %d" % i
        got = np.load(path)
        if got.shape != ref.shape:
            return False, "result %d: shape %s, %s has %s" % (
                i, got.shape, peer, ref.shape)
        err = np.abs(got.astype(np.float64) - ref.astype(np.float64))
        tol = workload.atol + workload.rtol * np.abs(ref.astype(np.float64))
        if not np.all(err <= tol):
            return False, "result %d: max |diff| %.3g (tolerance %.3g + %.3g |ref|)" % (
                i, float(err.max()), workload.atol, workload.rtol)
        worst = max(worst, float(err.max()) if err.size else 0.0)
        i += 1
    if i == 0:
        return False, "%s wrote no results" % peer
    return True, "max |diff| %.3g" % worst


def run_static_twin(runner, workload, threads, outdir, peer_medians):
    """Times the static compile as the peer "static"; its results go where
    check() looks for a peer's."""
    twin_dir = os.path.join(outdir, "static")
    os.makedirs(twin_dir, exist_ok=True)
    t = runner.run_tracec(workload, threads, twin_dir,
                          module=runner.static_twin(workload))
    peer_medians.setdefault("static", []).append(t["median_s"])
    prefix = workload.entry + "_result"
    for name in os.listdir(twin_dir):
        if name.startswith(prefix):
            shutil.copy(os.path.join(twin_dir, name),
                        os.path.join(outdir, "static_result" + name[len(prefix):]))


def run_aot_pair(runner, workload, rounds):
    """The workload's AOT row: its object compiled with the `?` against its
    static twin (peer "static AOT"), in a plain C program
    (bench/aot_dynamic_bench.c), alternating who goes first, medians of
    rounds; checked by the loss each computes."""
    times = {"dynamic": [], "static": []}
    losses = {}
    for r in range(rounds):
        for kind in (["dynamic", "static"] if r % 2 == 0 else ["static", "dynamic"]):
            cmd = [runner.aot_dynamic_bench, kind, str(workload.static_batch),
                   str(max(runner.args.min_time, 0.1))]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), proc.stderr))
            median, loss = (float(v) for v in proc.stdout.split())
            times[kind].append(median)
            losses[kind] = loss
    ok = abs(losses["dynamic"] - losses["static"]) <= (
        workload.atol + workload.rtol * abs(losses["static"]))
    result = {
        "workload": workload.name.replace("MLP train step", "MLP train step AOT"),
        "description": "the same program as a tracec object called from C, "
                       "against the object compiled with the batch fixed",
        "threads": 1, "tracec_threads": 1,
        "tracec_s": statistics.median(times["dynamic"]),
        "tracec_rounds_s": times["dynamic"],
        "compile_s": [], "compile_notes": [], "blas": None,
        "torch": None, "numpy": None, "checked": ok,
    }
    t = statistics.median(times["static"])
    result["peers"] = {"static AOT": {
        "s": t, "rounds_s": times["static"], "check": ok,
        "check_note": "loss %g vs %g" % (losses["dynamic"], losses["static"]),
        "ratio": t / result["tracec_s"] if ok else None}}
    return result


def run_workload(runner, workload, threads, rounds):
    runner.module_of(workload)  # a Python workload is traced first
    tracec_medians, peer_medians, compiles = [], {}, []
    checks, report = {}, {}
    for r in range(rounds):
        outdir = os.path.join(runner.tmp, "out", "%s-%d-%d" % (
            re.sub(r"\W+", "_", workload.name), threads, r))
        os.makedirs(outdir, exist_ok=True)
        # Alternate who goes first, so neither always runs on a warm machine.
        order = ["tracec", "peers"] if r % 2 == 0 else ["peers", "tracec"]
        for who in order:
            if who == "tracec":
                t = runner.run_tracec(workload, threads, outdir)
                tracec_medians.append(t["median_s"])
                compiles.append((t["compile_s"], t["compile_note"]))
                if workload.static_batch:
                    run_static_twin(runner, workload, threads, outdir,
                                    peer_medians)
            else:
                report = runner.run_peers(workload, threads, outdir)
                for name, stats in report["peers"].items():
                    peer_medians.setdefault(name, []).append(stats["median_s"])
        if r == 0:
            for peer in dict.fromkeys(list(report["peers"]) + list(peer_medians)):
                if peer in workload.references:
                    checks[peer] = (None, "not the same function: timed for scale")
                else:
                    checks[peer] = check(workload, outdir, outdir, peer)
    result = {
        "workload": workload.name, "description": workload.description,
        "threads": threads,
        "tracec_threads": threads if runner.threads_flag else "n/a",
        "tracec_s": statistics.median(tracec_medians),
        "tracec_rounds_s": tracec_medians,
        "compile_s": [c[0] for c in compiles],
        "compile_notes": [c[1] for c in compiles],
        "peers": {}, "blas": report.get("blas"),
        "torch": report.get("torch"), "numpy": report.get("numpy"),
    }
    checked_ok = all(ok is not False for ok, _ in checks.values())
    for peer, times in peer_medians.items():
        ok, note = checks[peer]
        t = statistics.median(times)
        counts = checked_ok and ok is not False
        result["peers"][peer] = {
            "s": t, "rounds_s": times, "check": ok, "check_note": note,
            "ratio": (t / result["tracec_s"]) if counts else None,
        }
    result["checked"] = checked_ok
    if workload.flops:
        result["gflops"] = workload.flops / result["tracec_s"] * 1e-9
        result["fma_peak_gflops"] = runner.fma_peak_gflops(threads)
    return result


def compile_rows(runner, rounds, selected):
    """Cold (no cache) and cached compile times of the bigger modules."""
    rows = []
    for workload in selected:
        if not workload.compile_row:
            continue
        cold, cached, ukernels = [], [], []
        no_cache = {"TRACEC_DISABLE_CACHE": "1"}
        for r in range(rounds):
            t = runner.run_tracec(workload, 1, calls=1, extra_env=no_cache)
            cold.append(t["compile_s"])
            breakdown = t["compile_note"]
            # The contraction micro-kernels (opt-in): faster compiles.
            t = runner.run_tracec(workload, 1, calls=1, extra_env=no_cache,
                                  extra_args=["--ukernels"])
            ukernels.append(t["compile_s"])
            ukernels_breakdown = t["compile_note"]
            t = runner.run_tracec(workload, 1, calls=1)  # hits: filled before
            if t["compile_note"] != "cache hit":
                t = runner.run_tracec(workload, 1, calls=1)
            cached.append(t["compile_s"])
        rows.append({"workload": "compile: " + workload.compile_row,
                     "cold_s": statistics.median(cold), "cold_rounds_s": cold,
                     "cold_breakdown": breakdown,
                     "cold_ukernels_s": statistics.median(ukernels),
                     "cold_ukernels_rounds_s": ukernels,
                     "cold_ukernels_breakdown": ukernels_breakdown,
                     "cached_s": statistics.median(cached),
                     "cached_rounds_s": cached})
    return rows


def log_result(r):
    """One line per result as it comes: a long run shows its progress."""
    parts = ["%s: %s" % (p, "%.2fx" % pr["ratio"] if pr["ratio"] is not None
                         else ("MISMATCH " + pr["check_note"]
                               if pr["check"] is False else "(%.2fx)" % (
                                   pr["s"] / r["tracec_s"])))
             for p, pr in r["peers"].items()]
    log("  %s, %d thr: tracec %s%s; %s" % (
        r["workload"], r["threads"], fmt(r["tracec_s"]), peak_share(r),
        ", ".join(parts)))


def peak_share(r):
    """' (<GFLOP/s>, <share> of the FMA peak)' for rows that count FLOPs."""
    if "gflops" not in r:
        return ""
    if not r["fma_peak_gflops"]:
        return " (%.0f GFLOP/s)" % r["gflops"]
    return " (%.0f GFLOP/s, %.0f%% of FMA peak)" % (
        r["gflops"], 100 * r["gflops"] / r["fma_peak_gflops"])


def write_partial(out, results):
    with open(os.path.join(out, "bench.partial.json"), "w") as f:
        json.dump({"results": results}, f, indent=1)


def fmt(s):
    if s is None:
        return "-"
    for unit, scale in (("s", 1), ("ms", 1e3), ("us", 1e6)):
        if s * scale >= 1:
            return "%.3g %s" % (s * scale, unit)
    return "%.3g ns" % (s * 1e9)


def print_table(results, compiles, peers_order, out):
    header = ["workload", "thr", "tracec"]
    for p in peers_order:
        header += [p, "ratio"]
    rows = []
    for r in results:
        row = [r["workload"], "%s%s" % (r["threads"], "" if r["tracec_threads"] != "n/a" else "*"),
               fmt(r["tracec_s"])]
        for p in peers_order:
            if p in r["peers"]:
                pr = r["peers"][p]
                ratio = "%.2fx" % pr["ratio"] if pr["ratio"] is not None else (
                    "MISMATCH" if pr["check"] is False else "-")
                if pr["check"] is None:
                    ratio = "(%.2fx)" % (pr["s"] / r["tracec_s"])
                row += [fmt(pr["s"]), ratio]
            else:
                row += ["", ""]
        rows.append(row)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    line = "  ".join("%-*s" % (w, h) for w, h in zip(widths, header))
    print(line, file=out)
    print("-" * len(line), file=out)
    for row in rows:
        print("  ".join("%-*s" % (w, c) for w, c in zip(widths, row)), file=out)
    if compiles:
        print(file=out)
        print("JIT compile (tracec::Executable::compile)   cold (no cache)   "
              "cold, --ukernels   cached", file=out)
        for c in compiles:
            print("  %-40s %-17s %-19s %s" % (
                c["workload"][9:], fmt(c["cold_s"]), fmt(c["cold_ukernels_s"]),
                fmt(c["cached_s"])), file=out)
    print(file=out)
    print("ratio = peer time / tracec time (above 1: tracec is faster); "
          "(x): a reference point, not the same function; MISMATCH: results "
          "disagree, time not counted", file=out)
    peaks = [r for r in results if "gflops" in r]
    if peaks:
        print(file=out)
        print("tracec's rate in the contractions' FLOPs against the measured "
              "FMA peak (bench/fma_peak.c):", file=out)
        for r in peaks:
            print("  %-40s %d thr%s" % (r["workload"], r["threads"],
                                        peak_share(r)), file=out)
    if any(r["tracec_threads"] == "n/a" for r in results):
        print("*: tracec-run has no --threads flag: tracec ran with its "
              "default threads; the peers with thr", file=out)


def draw_chart(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels, values, colors = [], [], []
    palette = {"numpy": "tab:blue", "torch": "tab:orange", "np.tanh": "tab:green",
               "static": "tab:red",
               "copy": "tab:gray"}
    for r in results:
        for peer, pr in r["peers"].items():
            ratio = pr["ratio"] if pr["ratio"] is not None else (
                pr["s"] / r["tracec_s"] if pr["check"] is None else None)
            if ratio is None:
                continue
            labels.append("%s vs %s, %d thr" % (r["workload"], peer, r["threads"]))
            values.append(ratio)
            colors.append(palette.get(peer, "tab:purple"))
    fig, ax = plt.subplots(figsize=(10, 0.28 * len(labels) + 1.5))
    y = range(len(labels))
    ax.barh(list(y), values, color=colors)
    ax.set_yticks(list(y))
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xlabel("peer time / tracec time (log; right of 1: tracec faster)")
    ax.set_title("tracec vs peers (%s)" % time.strftime("%Y-%m-%d %H:%M"))
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=None,
                        help="where bench.json and ratios.png go "
                             "(default: <build-dir>/bench-results)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.5,
                        help="seconds of timed peer calls per round")
    parser.add_argument("--only", default="",
                        help="comma-separated substrings of workload names")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--no-compile-times", action="store_true")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.list:
        for w in wl.WORKLOADS:
            print("%-24s %s" % (w.name, w.description))
        return 0
    args.build_dir = os.path.abspath(args.build_dir)
    out = args.out or os.path.join(args.build_dir, "bench-results")
    os.makedirs(out, exist_ok=True)
    if not args.skip_build:
        build(args.build_dir)
    runner = Runner(args)
    threads = [int(t) for t in args.threads.split(",")]
    only = [s.strip().lower() for s in args.only.split(",") if s.strip()]
    selected = [w for w in wl.WORKLOADS
                if not only or any(s in w.name.lower() for s in only)]
    if not selected:
        log("bench/run: no workload matches --only=%s (see --list)" % args.only)
        return 1
    log("tracec-run --threads: %s" % ("yes" if runner.threads_flag else
                                      "no (recorded as n/a)"))
    results = []
    started = time.time()
    try:
        for w in selected:
            for t in threads:
                log("%-24s %d thread%s ..." % (w.name, t, "" if t == 1 else "s"))
                r = run_workload(runner, w, t, args.rounds)
                if w.name == "tiny call (JIT)" and os.path.exists(runner.aot_bench):
                    # The call itself, batched by Google Benchmark: the
                    # per-call clock of tracec-run costs as much as the call.
                    r["tracec_run_s"] = r["tracec_s"]
                    r["tracec_s"], r["tracec_rounds_s"] = runner.gbench_rounds(
                        "BM_JitTiny", t, args.rounds)
                    aot = json.loads(json.dumps(r))
                    aot["workload"] = "tiny call (AOT)"
                    aot["description"] = "the same entry compiled by tracec, a plain C call"
                    aot["tracec_s"], aot["tracec_rounds_s"] = runner.gbench_rounds(
                        "BM_AotTiny", t, args.rounds)
                    for rr in (r, aot):
                        for pr in rr["peers"].values():
                            if pr["ratio"] is not None:
                                pr["ratio"] = pr["s"] / rr["tracec_s"]
                    results.append(r)
                    results.append(aot)
                    log_result(r)
                    log_result(aot)
                    write_partial(out, results)
                    continue
                results.append(r)
                log_result(r)
                write_partial(out, results)
                if (w.aot_row and t == 1 and
                        os.path.exists(runner.aot_dynamic_bench)):
                    aot = run_aot_pair(runner, w, args.rounds)
                    results.append(aot)
                    log_result(aot)
                    write_partial(out, results)
        compiles = [] if args.no_compile_times else compile_rows(
            runner, args.rounds, selected)
    finally:
        shutil.rmtree(runner.tmp, ignore_errors=True)
    peers_order = []
    for r in results:
        for p in r["peers"]:
            if p not in peers_order:
                peers_order.append(p)
    print_table(results, compiles, peers_order, sys.stdout)
    blas = next((r["blas"] for r in results if r.get("blas")), None)
    summary = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"cpu": platform.processor() or platform.machine(),
                    "cores": os.cpu_count(),
                    "loadavg_at_end": os.getloadavg()},
        "seconds": time.time() - started,
        "rounds": args.rounds, "threads": threads,
        "tracec_threads_flag": runner.threads_flag,
        "peer_blas": blas,
        "ratio": "peer time / tracec time; above 1: tracec is faster",
        "results": results, "compile": compiles,
    }
    with open(os.path.join(out, "bench.json"), "w") as f:
        json.dump(summary, f, indent=1)
    try:
        draw_chart(results, os.path.join(out, "ratios.png"))
        log("wrote %s and %s" % (os.path.join(out, "bench.json"),
                                 os.path.join(out, "ratios.png")))
    except ImportError as e:
        log("wrote %s; no chart: %s (install python3-matplotlib)" % (
            os.path.join(out, "bench.json"), e))
    if blas:
        log("peer OpenBLAS: %s %s, kernel %s" % (blas.get("library"),
            blas.get("version", ""), blas.get("corename")))
    mismatches = [r["workload"] for r in results if not r["checked"]]
    if mismatches:
        log("results disagree with a peer for: " + ", ".join(mismatches))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
