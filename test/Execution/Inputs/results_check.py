"""The command line of the check scripts that lit tests run around tracec-run.

    SCRIPT inputs DIR N   writes each input (at size N) to DIR/<name>.npy
    SCRIPT check DIR N    compares each DIR/<entry>_result<k>.npy with its
                          reference and prints "ok <entry> <k> n=<N>" or
                          "MISMATCH <entry> <k> n=<N> ..." for FileCheck

A script defines inputs(n) -> {name: array} and expected(inputs) ->
{entry: [reference of result 0, result 1, ...]} and calls main().
"""
import os
import sys

import numpy as np


def compare(got, want, rtol, atol, check_dtype):
    """(ok, what differs) for one result against its reference."""
    want = np.asarray(want)
    same_shape = got.shape == want.shape
    ok = (same_shape and (not check_dtype or got.dtype == want.dtype)
          and np.allclose(got, want, rtol=rtol, atol=atol))
    worst = np.abs(got - want).max() if same_shape and got.size else 0
    return ok, "got %s %s want %s %s max diff %g" % (
        got.shape, got.dtype, want.shape, want.dtype, worst)


def main(inputs, expected, rtol, atol, check_dtype=False,
         optional=lambda n: False):
    """Runs the mode that sys.argv names. Results missing where optional(n)
    holds are entries the test does not run at that size."""
    mode, directory, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "inputs":
        for name, array in inputs(n).items():
            np.save(os.path.join(directory, name + ".npy"), array)
        return
    for entry, wants in expected(inputs(n)).items():
        for k, want in enumerate(wants):
            path = os.path.join(directory, "%s_result%d.npy" % (entry, k))
            if optional(n) and not os.path.exists(path):
                continue
            ok, differs = compare(np.load(path), want, rtol, atol,
                                  check_dtype)
            print(("ok " if ok else "MISMATCH ") + "%s %d n=%d" % (entry, k, n)
                  + ("" if ok else " " + differs))
