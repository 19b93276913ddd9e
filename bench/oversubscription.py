#!/usr/bin/python3
"""How tracec and PyTorch degrade when the machine is oversubscribed.

Runs bench/run on the chosen rows at N threads alone, then `--copies`
copies of the same bench/run at once (by default 2: twice as many threads
as cores on a 2-core machine), and prints, per row and per library, the
median time alone, the median under load (the mean of the copies) and the
slowdown. Each bench/run interleaves tracec and its peers, so both meet
the same load. Nothing is asserted.

    bench/oversubscription.py [--only "sgemm 256,MLP train step"]
        [--threads 2] [--copies 2] [--rounds 3] [--out DIR]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ROWS = "sgemm 256,MLP train step,CNN train step,attention fwd+bwd"


def run_bench(args, out):
    cmd = [os.path.join(ROOT, "bench", "run"), "--skip-build", "--threads",
           str(args.threads), "--rounds", str(args.rounds), "--only", args.only,
           "--out", out]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def times(out):
    """{(workload, library): seconds} of one bench/run's bench.json."""
    with open(os.path.join(out, "bench.json")) as f:
        results = json.load(f)["results"]
    found = {}
    for r in results:
        found[(r["workload"], "tracec")] = r["tracec_s"]
        for peer, p in r["peers"].items():
            if p.get("check", True) is not False:
                found[(r["workload"], peer)] = p["s"]
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=DEFAULT_ROWS)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--copies", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default=os.path.join(ROOT, "build",
                                                      "bench-oversubscription"))
    args = parser.parse_args()

    alone_dir = os.path.join(args.out, "alone")
    if run_bench(args, alone_dir).wait():
        sys.exit("bench/run failed (alone); run it by hand to see why")
    alone = times(alone_dir)
    dirs = [os.path.join(args.out, "copy%d" % i) for i in range(args.copies)]
    procs = [run_bench(args, d) for d in dirs]
    if any(p.wait() for p in procs):
        sys.exit("bench/run failed (under load)")
    loaded = [times(d) for d in dirs]

    print("%d copies of bench/run at %d threads each at once (%d cores)"
          % (args.copies, args.threads, os.cpu_count()))
    print("%-22s %-8s %10s %10s %9s" % ("workload", "library", "alone",
                                        "loaded", "slowdown"))
    for key in sorted(alone):
        under = [t[key] for t in loaded if key in t]
        if not under:
            continue
        mean = statistics.mean(under)
        print("%-22s %-8s %8.3f ms %8.3f ms %8.2fx" % (
            key[0], key[1], alone[key] * 1e3, mean * 1e3, mean / alone[key]))


if __name__ == "__main__":
    main()
