"""Autograph (tracec.function(autograph=True)): Python `if`, `while` and
`for` on traced values compile to scf.if, scf.while and scf.for; each
converted function equals the same Python function run on NumPy arrays,
on inputs that take each branch and several trip counts, and its
gradients equal finite differences (f64)."""
import numpy as np
import pytest

import tracec
import tracec.numpy as tnp
from tracec import autograph


def numeric_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


def relu_or_square(x):
    if tnp.sum(x) > 0:
        y = x * x
    elif tnp.sum(x) > -2:
        y = tnp.sin(x)
    else:
        y = -3 * x
    return tnp.sum(y)


def relu_or_square_np(x):
    if np.sum(x) > 0:
        y = x * x
    elif np.sum(x) > -2:
        y = np.sin(x)
    else:
        y = -3 * x
    return np.sum(y)


@pytest.mark.parametrize("shift", [1.0, -0.5, -2.0])
def test_if_elif_else_on_a_traced_condition(shift):
    x = np.array([0.3, -0.2, 0.5], np.float64) * 2 + shift
    f = tracec.function(relu_or_square, autograph=True)
    np.testing.assert_allclose(f(x), relu_or_square_np(x), rtol=1e-12)
    g = tracec.grad(autograph.convert(relu_or_square))(x)
    np.testing.assert_allclose(g, numeric_grad(relu_or_square_np, x),
                               rtol=1e-6, atol=1e-8)
    ir = f.get_concrete_function(x).ir()
    assert ir.count("scf.if") == 2


def halve_until_small(x, limit):
    steps = 0
    while tnp.sum(x * x) > limit:
        x = x * 0.5
        steps = steps + 1
    return x, steps


@pytest.mark.parametrize("limit", [100.0, 1.0, 1e-3])
def test_while_on_a_traced_condition(limit):
    x = np.array([3.0, -4.0], np.float64)
    f = tracec.function(halve_until_small, autograph=True)
    y, steps = f(x, np.float64(limit))
    expected_y, expected_steps = x.copy(), 0
    while np.sum(expected_y ** 2) > limit:
        expected_y, expected_steps = expected_y * 0.5, expected_steps + 1
    np.testing.assert_allclose(y, expected_y)
    assert int(steps) == expected_steps
    assert "scf.while" in f.get_concrete_function(x, np.float64(limit)).ir()

    converted = autograph.convert(halve_until_small)
    g = tracec.grad(
        lambda x: tnp.sum(converted(x, np.float64(limit))[0] ** 3))(x)
    np.testing.assert_allclose(g, 3 * expected_y ** 2 * 0.5 ** expected_steps)


def power_sum(x, n):
    total = tnp.zeros_like(x)
    term = tnp.ones_like(x)
    for _ in range(n):
        term = term * x
        total = total + term
    return total


@pytest.mark.parametrize("n", [0, 1, 5])
def test_for_over_a_traced_range(n):
    x = np.array([0.5, -1.5, 2.0])
    f = tracec.function(power_sum, autograph=True)
    expected = sum(x ** k for k in range(1, n + 1)) + 0 * x
    np.testing.assert_allclose(f(x, np.int32(n)), expected)
    assert "scf.for" in f.get_concrete_function(x, np.int32(n)).ir()
    converted = autograph.convert(power_sum)
    g = tracec.grad(lambda x: tnp.sum(converted(x, np.int32(n))))(x)
    np.testing.assert_allclose(
        g, sum(k * x ** (k - 1) for k in range(1, n + 1)) + 0 * x)


def test_python_ranges_unroll_up_to_the_limit_and_compile_above():
    x = np.array([0.5, 0.25])
    f = tracec.function(power_sum, autograph=True)
    assert "scf.for" not in f.get_concrete_function(x, 3).ir()
    np.testing.assert_allclose(f(x, 3), x + x ** 2 + x ** 3)
    ir = f.get_concrete_function(x, 40).ir()
    assert ir.count("scf.for") == 1 and ir.count("trace.mul") < 5
    np.testing.assert_allclose(f(x, 40), sum(x ** k for k in range(1, 41)))
    always = tracec.function(power_sum, autograph=True, autograph_unroll=0)
    assert "scf.for" in always.get_concrete_function(x, 2).ir()


def row_products(xs, h):
    for row in xs:
        h = tnp.tanh(row * h + 0.5)
    return tnp.sum(h)


def test_for_over_a_traced_arrays_rows():
    rng = np.random.default_rng(0)
    xs, h = rng.normal(size=(12, 3)) * 0.5, rng.normal(size=3)

    def reference(h):
        for row in xs:
            h = np.tanh(row * h + 0.5)
        return np.sum(h)
    f = tracec.function(row_products, autograph=True)
    np.testing.assert_allclose(f(xs, h), reference(h), rtol=1e-12)
    assert "scf.for" in f.get_concrete_function(xs, h).ir()
    converted = autograph.convert(row_products)
    g = tracec.grad(lambda h: converted(xs, h))(h)
    np.testing.assert_allclose(g, numeric_grad(reference, h), rtol=1e-5,
                               atol=1e-9)


def test_python_conditions_stay_python():
    def f(x, scale):
        items = []
        if scale > 1:
            x = x * scale
        while len(items) < 3:
            items.append(len(items))
        for k in items:
            x = x + k
        return x
    g = tracec.function(f, autograph=True)
    np.testing.assert_allclose(g(np.ones(2), 2.0), np.full(2, 5.0))
    ir = g.get_concrete_function(np.ones(2), 2.0).ir()
    assert "scf." not in ir


def test_body_temporaries_need_no_value_before_the_loop():
    def f(x):
        for k in range(10):
            t = x * 0.5
            x = t + k
        return x
    g = tracec.function(f, autograph=True)
    expected = 1.0
    for k in range(10):
        expected = expected * 0.5 + k
    np.testing.assert_allclose(g(np.float64(1.0)), expected)


def test_a_variable_of_one_branch_only_is_an_error_naming_it_and_the_line():
    def f(x):
        if tnp.sum(x) > 0:
            y = x
        return y
    g = tracec.function(f, autograph=True)
    line = f.__code__.co_firstlineno + 1
    with pytest.raises(TypeError, match=rf"line {line}: 'y' gets a value in "
                       "one branch"):
        g(np.ones(2))


def first_above(x, limit):
    total = x * 0
    for k in range(20):
        total = total + x
        if tnp.sum(total) > limit:
            return total * k, k
    return -total, np.int64(-1)


def first_negative_row(m):
    for row in m:
        if tnp.sum(row) < 0:
            return row * 2
    return tnp.zeros_like(m[0])


def inner_return_ends_both_loops(m, limit):
    acc = m[0] * 0
    for i in range(10):
        for row in m:
            acc = acc + row
            if tnp.sum(acc) > limit:
                return acc, i
    return acc, np.int64(-1)


def traced_trip_count(x, n):
    for k in range(n):
        x = tnp.sin(x) + 1
        if tnp.max(x) > 1.9:
            return x * k
    return x


def while_return(x):
    while tnp.sum(x) > 0:
        x = x - 1
        if tnp.sum(x) < 3:
            return x * 10
    return -x


def loop_return_in_a_branch(m, flag):
    if tnp.sum(flag) > 0:
        for row in m:
            if tnp.sum(row) > 2:
                return row
        return m[0] * 0 - 1
    return m[1]


_rows = np.arange(12.).reshape(12, 1)
_pairs = np.arange(20.).reshape(10, 2) * 0.3


@pytest.mark.parametrize("f, args, loop", [
    (first_above, (np.array([1., 2.]), 10.), "scf.while"),
    (first_above, (np.array([1., 2.]), 1000.), "scf.while"),
    (first_above, (np.array([1., 2.]), -1.), "scf.while"),
    (first_negative_row, (_rows - 5,), "scf.while"),
    (first_negative_row, (_rows + 1,), "scf.while"),
    (inner_return_ends_both_loops, (_rows - 5, 3.), "scf.while"),
    (inner_return_ends_both_loops, (_rows - 5, 300.), "scf.while"),
    (traced_trip_count, (np.array([0.1, 0.3]), np.int64(30)), "scf.while"),
    (traced_trip_count, (np.array([0.1, 0.3]), np.int64(0)), "scf.while"),
    (while_return, (np.array([5., 4.]),), "scf.while"),
    (while_return, (np.array([1., 1.]),), "scf.while"),
    (while_return, (np.array([-1., 0.5]),), "scf.while"),
    (loop_return_in_a_branch, (_pairs, np.ones(1)), "scf.while"),
    (loop_return_in_a_branch, (_pairs - 100, np.ones(1)), "scf.while"),
    (loop_return_in_a_branch, (_pairs, -np.ones(1)), "scf.while"),
])
def test_return_inside_compiled_loops(f, args, loop):
    # The loop is compiled (not unrolled), and the function returns what
    # the same Python function returns eagerly.
    g = tracec.function(f, autograph=True)
    ir = g.get_concrete_function(*args).ir()
    assert loop in ir
    expected, got = f(*args), g(*args)
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for e, o in zip(expected, got):
            np.testing.assert_allclose(o, e, rtol=1e-12)
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.parametrize("limit", [2.0, 8.5, 1e6])
def test_gradient_through_a_return_inside_a_compiled_loop(limit):
    def f(x):
        total, k = first_above(x, limit)
        return tnp.sum(tnp.sin(total))

    def f_np(x):
        total, k = first_above(x, limit)
        return np.sum(np.sin(total))
    x = np.array([0.3, 0.45], np.float64)  # no trip count at a limit
    g = tracec.grad(autograph.convert(f))
    np.testing.assert_allclose(tracec.function(g)(x),
                               numeric_grad(f_np, x), rtol=1e-6, atol=1e-9)


def test_return_inside_a_compiled_loop_must_match_the_other_paths():
    def falls_off(x):
        for k in range(20):
            if tnp.sum(x) > k:
                return x
    line = falls_off.__code__.co_firstlineno + 1
    with pytest.raises(TypeError, match=rf"line {line}: the function returns "
                       r"values of another structure .*: \* and None \(a "
                       "path that ends without `return` returns None"):
        tracec.function(falls_off, autograph=True)(np.ones(2))

    def other_structure(x):
        for k in range(20):
            if tnp.sum(x) > k:
                return x
        return x, x
    with pytest.raises(TypeError, match="another structure"):
        tracec.function(other_structure, autograph=True)(np.ones(2))

    def other_shape(x):
        for k in range(20):
            if tnp.sum(x) > k:
                return x[0]
        return x
    with pytest.raises(tracec.TraceError, match="different types"):
        tracec.function(other_shape, autograph=True)(np.ones(2))


def test_return_of_dynamic_shape_inside_a_compiled_loop_says_why_not():
    def f(x):
        for k in range(20):
            if tnp.sum(x) > k:
                return x * 2
        return x
    g = tracec.function(f, autograph=True, input_signature=[
        tracec.TensorSpec((None,), np.float64)])
    line = f.__code__.co_firstlineno + 2
    with pytest.raises(TypeError, match=rf"line {line}: the return value has "
                       "a dynamic shape .*only with a static one"):
        g(np.ones(3))


def test_return_inside_python_loops():
    def search(x, wanted):
        for k in range(20):
            if k == wanted:
                return x * k
        return -x
    h = tracec.function(search, autograph=True)
    np.testing.assert_allclose(h(np.ones(2), 3), [3.0, 3.0])
    np.testing.assert_allclose(h(np.ones(2), 30), [-1.0, -1.0])
    # With a Python condition it runs as Python.
    h = tracec.function(lambda x, flag: _early(x, flag), autograph=True)
    np.testing.assert_allclose(h(np.ones(2), True), np.ones(2))


def _early(x, flag):
    if flag:
        return x
    return -x


def test_experimental_autograph_is_the_seeds_name_and_off_by_default():
    f = tracec.function(relu_or_square, experimental_autograph=True)
    np.testing.assert_allclose(f(np.ones(3)), 3.0)
    with pytest.raises(TypeError, match="tracec.cond"):
        tracec.function(relu_or_square)(np.ones(3))


def test_the_converted_source_can_be_printed():
    source = autograph.to_source(halve_until_small)
    assert "while_stmt" in source and "def halve_until_small" in source


def test_closures_and_defaults_survive_conversion():
    scale = 3.0

    def f(x, offset=1.0):
        if tnp.sum(x) > 0:
            x = x * scale + offset
        return x
    g = tracec.function(f, autograph=True)
    np.testing.assert_allclose(g(np.ones(2)), np.full(2, 4.0))


def grow_until(x, limit):
    i = 0
    while i < 100:
        x = x * 1.5
        if tnp.sum(x) > limit:
            break
        i = i + 1
    return x, i


def grow_until_np(x, limit):
    i = 0
    while i < 100:
        x = x * 1.5
        if np.sum(x) > limit:
            break
        i = i + 1
    return x, i


@pytest.mark.parametrize("limit", [0.5, 10.0, 1e4])
def test_break_ends_a_while_loop_on_a_traced_condition(limit):
    x = np.array([0.25, 0.5])
    f = tracec.function(grow_until, autograph=True)
    y, i = f(x, np.float64(limit))
    expected_y, expected_i = grow_until_np(x, limit)
    np.testing.assert_allclose(y, expected_y)
    assert int(i) == expected_i
    converted = autograph.convert(grow_until)
    g = tracec.grad(lambda x: tnp.sum(converted(x, np.float64(limit))[0]))(x)
    np.testing.assert_allclose(
        g, numeric_grad(lambda x: np.sum(grow_until_np(x, limit)[0]), x),
        rtol=1e-6)


def odd_terms(x, n):
    total = tnp.zeros_like(x)
    for k in range(n):
        if k % 2 == 0:
            continue
        total = total + x ** k
    return total


@pytest.mark.parametrize("n", [0, 4, 9])
def test_continue_skips_the_rest_of_an_iteration(n):
    x = np.array([0.5, 2.0])
    expected = sum(x ** k for k in range(1, n, 2)) + 0 * x
    traced_n = tracec.function(odd_terms, autograph=True)
    np.testing.assert_allclose(traced_n(x, np.int64(n)), expected)
    # A Python n unrolls (up to 8) or compiles: the same numbers.
    np.testing.assert_allclose(traced_n(x, n), expected)
    converted = autograph.convert(odd_terms)
    g = tracec.grad(lambda x: tnp.sum(converted(x, np.int64(n))))(x)
    np.testing.assert_allclose(
        g, sum(k * x ** (k - 1) for k in range(1, n, 2)) + 0 * x)


def first_rows_until_negative(xs):
    total = tnp.zeros_like(xs[0])
    for row in xs:
        if tnp.min(row) < 0:
            break
        total = total + row
    return total


@pytest.mark.parametrize("rows", [3, 12])
def test_break_in_a_loop_over_rows_unrolled_or_compiled(rows):
    rng = np.random.default_rng(rows)
    xs = np.abs(rng.normal(size=(rows, 2)))
    xs[rows // 2 + 1, 1] = -1.0
    f = tracec.function(first_rows_until_negative, autograph=True)
    np.testing.assert_allclose(f(xs), xs[:rows // 2 + 1].sum(axis=0))
    assert "scf.while" in f.get_concrete_function(xs).ir()


def sign_scaled(x):
    if tnp.sum(x) > 0:
        return x * 2, tnp.sum(x)
    y = -x
    if tnp.max(y) > 3:
        return y / 3, tnp.max(y)
    return y, tnp.min(y)


def sign_scaled_np(x):
    if np.sum(x) > 0:
        return x * 2, np.sum(x)
    y = -x
    if np.max(y) > 3:
        return y / 3, np.max(y)
    return y, np.min(y)


@pytest.mark.parametrize("x", [[1.0, 2.0], [-1.0, -0.5], [-4.0, 1.0]])
def test_return_inside_ifs_on_traced_conditions(x):
    x = np.array(x)
    f = tracec.function(sign_scaled, autograph=True)
    for got, expected in zip(f(x), sign_scaled_np(x)):
        np.testing.assert_allclose(got, expected)
    converted = autograph.convert(sign_scaled)
    g = tracec.grad(lambda x: tnp.sum(converted(x)[0]) + converted(x)[1])(x)
    np.testing.assert_allclose(
        g, numeric_grad(lambda x: np.sum(sign_scaled_np(x)[0]) +
                        sign_scaled_np(x)[1], x), rtol=1e-6, atol=1e-9)


def test_branches_returning_other_structures_are_an_error():
    def f(x):
        if tnp.sum(x) > 0:
            return x, x
        return x
    with pytest.raises(TypeError, match="the function returns values of "
                       r"another structure on the paths that meet here: "
                       r"\(\*, \*\) and \*"):
        tracec.function(f, autograph=True)(np.ones(2))


def _clipped(x):
    # A function of the user's, called from a converted one: converted too.
    if tnp.max(x) > 1:
        x = x / tnp.max(x)
    return x


def test_functions_called_from_a_converted_function_are_converted():
    def f(x):
        return tnp.sum(_clipped(x) * 3)
    g = tracec.function(f, autograph=True)
    np.testing.assert_allclose(g(np.array([0.5, 0.25])), 2.25)
    np.testing.assert_allclose(g(np.array([4.0, 2.0])), 4.5)
    assert "scf.if" in g.get_concrete_function(np.ones(2)).ir()


def test_generators_are_refused_with_their_location():
    def gen(x):
        yield x
    with pytest.raises(TypeError, match=r"test_autograph.py:\d+: gen is a "
                       "generator"):
        tracec.function(gen, autograph=True)


def test_jvp_and_vmap_through_converted_control_flow():
    converted = autograph.convert(relu_or_square)
    for x in (np.array([0.5, 0.2, 0.1]), np.array([-0.5, -0.2, -0.1]),
              np.array([-2.0, -1.0, -0.5])):
        v = np.array([0.3, -0.7, 0.2])
        _, tangent = tracec.jvp(converted, (x,), (v,))
        eps = 1e-6
        np.testing.assert_allclose(
            tangent, (relu_or_square_np(x + eps * v) -
                      relu_or_square_np(x - eps * v)) / (2 * eps),
            rtol=1e-6)
    xs = np.array([[0.5, 0.2, 0.1], [-0.5, -0.2, -0.1], [-2.0, -1.0, -0.5]])
    np.testing.assert_allclose(
        tracec.vmap(converted)(xs), [relu_or_square_np(x) for x in xs])


def test_variables_assigned_in_converted_branches():
    v = tracec.Variable(np.zeros(2))

    @tracec.function(autograph=True)
    def f(x):
        if tnp.sum(x) > 0:
            v.assign(x)
        else:
            v.assign_add(-x)
        return v.read_value() * 2
    np.testing.assert_allclose(f(np.array([1.0, 2.0])), [2.0, 4.0])
    np.testing.assert_allclose(v.numpy(), [1.0, 2.0])
    np.testing.assert_allclose(f(np.array([-1.0, -1.0])), [4.0, 6.0])
    np.testing.assert_allclose(v.numpy(), [2.0, 3.0])


def test_loops_carry_structures_of_arrays():
    def f(x, n):
        state = {"a": x, "sums": (tnp.zeros_like(x), 0.0)}
        for _ in range(n):
            a, (total, count) = state["a"], state["sums"]
            state = {"a": a * 0.5, "sums": (total + a, count + 1.0)}
        return state["sums"]
    g = tracec.function(f, autograph=True)
    x = np.array([1.0, -2.0])
    total, count = g(x, 20)
    np.testing.assert_allclose(total, x * (2 - 0.5 ** 19))
    assert float(count) == 20.0
    assert "scf.for" in g.get_concrete_function(x, 20).ir()

    def changes(x, n):
        state = (x,)
        for _ in range(n):
            state = (state[0], state[0])
        return state
    with pytest.raises(TypeError, match="'state' has another structure "
                       "after an iteration than before the loop"):
        tracec.function(changes, autograph=True)(x, 20)


@pytest.mark.parametrize("rows", [4, 16])
def test_enumerate_and_zip_over_traced_arrays(rows):
    rng = np.random.default_rng(rows)
    xs, ys = rng.normal(size=(rows, 3)), rng.normal(size=(rows + 2, 3))

    def f(xs, ys):
        total = tnp.zeros_like(xs[0])
        for i, x in enumerate(xs):
            total = total + x * i
        for x, y in zip(xs, ys):
            total = total + x * y
        return total
    g = tracec.function(f, autograph=True)
    expected = sum(x * i for i, x in enumerate(xs)) + \
        sum(x * y for x, y in zip(xs, ys))
    np.testing.assert_allclose(g(xs, ys), expected)
    assert ("scf.for" in g.get_concrete_function(xs, ys).ir()) == (rows > 8)
    # Python iterables stay Python.
    np.testing.assert_allclose(
        tracec.function(f, autograph=True)(list(xs), list(ys)), expected)


def test_jumps_inside_try_leave_the_loop_python_and_say_so():
    def f(x):
        while tnp.sum(x) > 0:
            try:
                x = x - 1
                if tnp.sum(x) < 1:
                    break
            finally:
                pass
        return x
    line = f.__code__.co_firstlineno + 1
    with pytest.raises(TypeError, match=rf"line {line}: a `while` loop with "
                       "a jump inside a `try` is not converted, and its "
                       "condition is a traced"):
        tracec.function(f, autograph=True)(np.ones(2))


def search_with_else(m, limit):
    acc = m[0] * 0
    found = acc
    for row in m:
        acc = acc + row
        if tnp.sum(acc) > limit:
            found = acc * 2
            break
    else:
        found = -acc
    return found


def count_down_with_else(x):
    steps = 0
    y = x
    while tnp.sum(x) > 0:
        x = x - 1
        steps = steps + 1
    else:
        y = x * 3
    return y, steps


def return_or_else(m, limit):
    for row in m:
        if tnp.sum(row) > limit:
            return row
    else:
        z = m[0] * 5
    return z + 1


def python_loop_else(x, wanted):
    for k in range(3):
        if k == wanted:
            x = x + 10
            break
    else:
        x = x - 10
    return x


_halves = np.arange(24.).reshape(12, 2) * 0.5


@pytest.mark.parametrize("f, args, compiled", [
    (search_with_else, (_halves, 10.), True),
    (search_with_else, (_halves, 1000.), True),
    (count_down_with_else, (np.array([3., 2.]),), True),
    (count_down_with_else, (np.array([-3., 2.]),), True),
    (return_or_else, (_halves, 10.), True),
    (return_or_else, (_halves, 1e4), True),
    (python_loop_else, (np.ones(2), 1), False),
    (python_loop_else, (np.ones(2), 5), False),
])
def test_loops_with_else(f, args, compiled):
    # `else` runs when the loop ends without a break, in compiled loops
    # too (where it is a traced `if` on the no-break flag).
    g = tracec.function(f, autograph=True)
    ir = g.get_concrete_function(*args).ir()
    assert ("scf.while" in ir) == compiled
    expected, got = f(*args), g(*args)
    for e, o in zip(*(v if isinstance(v, tuple) else (v,)
                      for v in (expected, got))):
        np.testing.assert_allclose(o, e, rtol=1e-12)
    if compiled and f is not count_down_with_else:
        assert "scf.if" in ir


def test_variables_updated_in_a_compiled_loop_in_program_order():
    v = tracec.Variable(np.zeros(2))

    @tracec.function(autograph=True)
    def f(x, n):
        for k in range(n):
            v.assign_add(x * k)
        return v.read_value()
    np.testing.assert_allclose(f(np.ones(2), np.int32(4)), [6.0, 6.0])
    np.testing.assert_allclose(f(np.ones(2), np.int32(3)), [9.0, 9.0])
    assert "scf.for" in f.get_concrete_function(np.ones(2),
                                                np.int32(3)).ir()


def test_a_while_loop_on_a_variable_alone():
    v = tracec.Variable(np.float64(0.0))

    @tracec.function(autograph=True)
    def f(limit):
        while v.read_value() < limit:
            v.assign_add(1.5)
        return v.read_value()
    np.testing.assert_allclose(f(np.float64(4.0)), 4.5)
    np.testing.assert_allclose(f(np.float64(4.0)), 4.5)
    np.testing.assert_allclose(f(np.float64(7.0)), 7.5)
