"""Inputs that used to kill the interpreter are Python exceptions: sizes
larger than memory (one rule, whatever the shape), including results whose
size comes from the arguments at run time."""
import numpy as np
import pytest

import tracec
import tracec.numpy as tnp


@pytest.mark.parametrize("shape", [(2**31, 2**31), (2**32, 2**32),
                                   (2**62, 4)])
def test_tensors_larger_than_memory_are_value_errors(shape):
    # They grew without limit, raised std::bad_alloc or a ValueError,
    # depending on the shape.
    with pytest.raises(ValueError, match="larger than a tensor can be"):
        tracec.function(lambda: tnp.ones(shape))()


def test_a_result_too_large_for_its_arguments_is_a_value_error():
    # (2^31, 0) @ (0, 2^31): empty inputs, a 2^64-byte result whose size
    # wrapped to 0 (a heap overflow that killed the interpreter).
    @tracec.function(input_signature=[tracec.TensorSpec((None, None),
                                                        np.float32)] * 2)
    def outer(a, b):
        return a @ b

    np.testing.assert_array_equal(outer(np.ones((2, 0), np.float32),
                                        np.ones((0, 3), np.float32)),
                                  np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="larger than a tensor can be"):
        outer(np.zeros((2**31, 0), np.float32),
              np.zeros((0, 2**31), np.float32))


def test_concurrent_first_calls_trace_each_signature_once():
    # Four threads calling one function with 7 shapes traced and compiled
    # it 10 times (the trace cache's check was not atomic), or deadlocked.
    import threading

    @tracec.function
    def f(x):
        return tnp.tanh(x) * 2.0

    shapes = [(n,) for n in range(1, 8)]
    errors = []

    def caller(seed):
        rng = np.random.default_rng(seed)
        try:
            for shape in rng.permutation(len(shapes)):
                x = rng.standard_normal(shapes[shape]).astype(np.float32)
                np.testing.assert_allclose(f(x), np.tanh(x) * 2, rtol=1e-6)
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(error)

    threads = [threading.Thread(target=caller, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a caller hangs"
    assert not errors, errors
    assert f.experimental_get_tracing_count() == len(shapes)



@pytest.mark.parametrize("threads", [1, 2])
def test_softmax_over_empty_rows_and_its_gradient(threads):
    # Rows of no elements crashed the compiler (SIGSEGV), the gradient too.
    import tracec.nn

    before = tracec.get_num_threads()
    tracec.set_num_threads(threads)
    try:
        x = np.zeros((2, 0), np.float32)
        y = tracec.function(tracec.nn.softmax)(x)
        g = tracec.function(tracec.grad(
            lambda x: tnp.sum(tracec.nn.softmax(x))))(x)
    finally:
        tracec.set_num_threads(before)
    assert y.shape == (2, 0) and g.shape == (2, 0)


def test_maximum_and_argmax_of_an_empty_axis_raise():
    # They gave -inf and index 0 (not an index), where NumPy raises.
    x = np.zeros((2, 0), np.float32)
    for f in (lambda x: tnp.max(x, axis=1), lambda x: tnp.min(x, axis=1),
              lambda x: tnp.argmax(x, axis=1)):
        with pytest.raises(ValueError, match="which is empty"):
            tracec.function(f)(x)
    # A sum of nothing is 0, and over the non-empty axis nothing is empty.
    np.testing.assert_array_equal(
        tracec.function(lambda x: tnp.sum(x, axis=1))(x), np.zeros(2))
    assert tracec.function(lambda x: tnp.max(x, axis=0))(x).shape == (0,)


def test_maximum_of_an_axis_empty_at_run_time_raises():
    @tracec.function(input_signature=[tracec.TensorSpec((None, 3),
                                                        np.float32)])
    def f(x):
        return tnp.max(x, axis=0)

    np.testing.assert_array_equal(
        f(np.array([[1, 5, 2], [4, 0, 3]], np.float32)), [4, 5, 3])
    with pytest.raises(ValueError, match="which is empty"):
        f(np.zeros((0, 3), np.float32))


def test_ir_while_another_thread_traces_does_not_deadlock():
    # A thread tracing holds the tracer's lock while its body runs Python;
    # concrete.ir() (and compiling, forward_backward) waited for that lock
    # holding the GIL, which the body then waited for: a deadlock (seen as
    # a hung test suite). In a subprocess, so that a regression fails the
    # test instead of hanging it.
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        import threading, time
        import numpy as np
        import tracec, tracec.numpy as tnp

        done = tracec.function(lambda x: x + 1).get_concrete_function(
            tracec.TensorSpec((2,), np.float32))
        started = threading.Event()

        def slow_body(x):
            started.set()
            time.sleep(0.5)  # releases the GIL inside the trace
            return tnp.sin(x)

        t = threading.Thread(target=lambda: tracec.function(slow_body)(
            np.zeros(2, np.float32)))
        t.start()
        started.wait()
        assert "trace" in done.ir()
        t.join()
        print("ok")
    """)
    proc = subprocess.run([sys.executable, "-c", script], timeout=120,
                          capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


@pytest.mark.parametrize("text, message", [
    ("func.func @f() attributes {a = array<index: 0, 1>} {\n  return\n}",
     r"model.mlir:1:32: error: a dense array of 'index' elements"),
    ("func.func @f() attributes {a = " + "[" * 20000 + "]" * 20000 +
     "} {\n  return\n}", r"model.mlir:1:1031: error: input nested more "
     r"than 1000 levels deep"),
], ids=["index-array", "deep"])
def test_text_mlir_parser_would_crash_on_is_a_compile_error(text, message):
    # MLIR's parser crashes on these (docs/upstream-bugs.md): refused first.
    with pytest.raises(ValueError, match=message):
        tracec.compile_module(text, "model.mlir")
