"""More of NumPy's names in tracec.numpy, each checked against NumPy on
the same inputs, eagerly and traced; gradients of the differentiable ones
against PyTorch at f64."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp

RNG = np.random.default_rng(11)
A = RNG.normal(size=(3, 4))
B = RNG.normal(size=(3, 4))
P = np.abs(A) + 0.1
V = RNG.normal(size=4)
W = RNG.normal(size=(4, 5))
S = RNG.normal(size=(4, 4))
N = np.array([1.0, np.nan, -np.inf, np.inf, -2.0])

CASES = [
    ("positive", lambda m: m.positive(A)),
    ("reciprocal", lambda m: m.reciprocal(P)),
    ("ceil", lambda m: m.ceil(A * 3)),
    ("trunc", lambda m: m.trunc(A * 3)),
    ("fix", lambda m: m.fix(A * 3)),
    ("exp2", lambda m: m.exp2(A)),
    ("expm1", lambda m: m.expm1(np.array([1e-9, -3e-6, 0.5, -2.0]))),
    ("log2", lambda m: m.log2(P)),
    ("log10", lambda m: m.log10(P)),
    ("logaddexp", lambda m: m.logaddexp(A * 300, B)),
    ("sinh", lambda m: m.sinh(A)),
    ("cosh", lambda m: m.cosh(A)),
    ("tan", lambda m: m.tan(A)),
    ("cbrt", lambda m: m.cbrt(A)),
    ("hypot", lambda m: m.hypot(A, B)),
    ("heaviside", lambda m: m.heaviside(np.array([-1.0, 0.0, 2.0]), 0.5)),
    ("nan_to_num", lambda m: m.nan_to_num(N)),
    ("nan_to_num values", lambda m: m.nan_to_num(N, nan=7.0, posinf=9.0,
                                                 neginf=-9.0)),
    ("isclose", lambda m: m.isclose(A, A + 1e-9 * np.arange(4))),
    ("allclose", lambda m: m.allclose(A, A + 1e-3)),
    ("array_equal", lambda m: m.array_equal(A, A)),
    ("count_nonzero", lambda m: m.count_nonzero(np.array([[0, 1], [2, 0]]),
                                                axis=0)),
    ("ptp", lambda m: m.ptp(A, axis=1)),
    ("average", lambda m: m.average(A, axis=1, weights=V * V)),
    ("average all", lambda m: m.average(A)),
    ("nansum", lambda m: m.nansum(N)),
    ("nanprod", lambda m: m.nanprod(np.array([2.0, np.nan, 3.0]))),
    ("nanmax", lambda m: m.nanmax(np.array([2.0, np.nan, 3.0]))),
    ("nanmin", lambda m: m.nanmin(np.array([2.0, np.nan, 3.0]))),
    ("nanmean", lambda m: m.nanmean(np.array([[2.0, np.nan], [3.0, 5.0]]),
                                    axis=1)),
    ("diff", lambda m: m.diff(A, axis=1)),
    ("diff 2", lambda m: m.diff(A, n=2, axis=0)),
    ("swapaxes", lambda m: m.swapaxes(A.reshape(3, 2, 2), 0, 2)),
    ("moveaxis", lambda m: m.moveaxis(A.reshape(3, 2, 2), 0, -1)),
    ("moveaxis two", lambda m: m.moveaxis(A.reshape(3, 2, 2), [0, 1],
                                          [2, 0])),
    ("atleast_1d", lambda m: m.atleast_1d(np.float64(3.0))),
    ("atleast_2d", lambda m: m.atleast_2d(V)),
    ("atleast_3d", lambda m: m.atleast_3d(A)),
    ("hstack", lambda m: m.hstack([A, B])),
    ("hstack 1-D", lambda m: m.hstack([V, V])),
    ("vstack", lambda m: m.vstack([V, V])),
    ("dstack", lambda m: m.dstack([A, B])),
    ("column_stack", lambda m: m.column_stack([V, V * 2])),
    ("outer", lambda m: m.outer(V, V[:3])),
    ("inner", lambda m: m.inner(A, B)),
    ("vdot", lambda m: m.vdot(A, B)),
    ("tensordot", lambda m: m.tensordot(A, W, 1)),
    ("tensordot axes", lambda m: m.tensordot(A.reshape(3, 2, 2), S.reshape(
        2, 2, 4), ([1, 2], [0, 1]))),
    ("full_like", lambda m: m.full_like(A, 2.5)),
    ("empty_like shape", lambda m: m.empty_like(A) * 0),
    ("eye", lambda m: m.eye(3, 4, k=1)),
    ("identity", lambda m: m.identity(3)),
    ("tri", lambda m: m.tri(3, 4, k=-1)),
    ("tril", lambda m: m.tril(S, -1)),
    ("triu", lambda m: m.triu(S, 1)),
    ("diag of matrix", lambda m: m.diag(S, 1)),
    ("diag of vector", lambda m: m.diag(V, -2)),
    ("diagonal", lambda m: m.diagonal(A, -1)),
    ("trace", lambda m: m.trace(S)),
    ("linspace", lambda m: m.linspace(0.0, 1.0, 7)),
    ("linspace open", lambda m: m.linspace(-2.0, 3.0, 4, endpoint=False)),
    ("meshgrid xy", lambda m: m.meshgrid(V, V[:3])[0]),
    ("meshgrid ij", lambda m: m.meshgrid(V, V[:3], indexing="ij")[1]),
    ("select", lambda m: m.select([A > 0.5, A < -0.5], [A, -A], 7.0)),
    ("fliplr", lambda m: m.fliplr(A)),
    ("flipud", lambda m: m.flipud(A)),
    ("rot90", lambda m: m.rot90(A)),
    ("rot90 3", lambda m: m.rot90(A, 3)),
    ("alltrue", lambda m: m.alltrue(A > -5)),
    ("sometrue", lambda m: m.sometrue(A > 5)),
    ("product", lambda m: m.product(P, axis=0)),
    ("cumproduct", lambda m: m.cumproduct(P, axis=1)),
    ("array", lambda m: m.array([[1.0, 2.0]])),
    ("fabs", lambda m: m.fabs(A)),
    ("deg2rad", lambda m: m.deg2rad(A * 90)),
    ("rad2deg", lambda m: m.rad2deg(A)),
    ("isposinf", lambda m: m.isposinf(N)),
    ("isneginf", lambda m: m.isneginf(N)),
    ("logaddexp2", lambda m: m.logaddexp2(A * 100, B)),
    ("float_power", lambda m: m.float_power(P, B)),
    ("fmax", lambda m: m.fmax(N, np.array([0.0, 1.0, np.nan, 2.0, -1.0]))),
    ("fmin", lambda m: m.fmin(N, np.array([0.0, 1.0, np.nan, 2.0, -1.0]))),
    ("sinc", lambda m: m.sinc(np.array([0.0, 0.5, -1.5, 2.25]))),
    ("round", lambda m: m.round(np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.4,
                                          -2.6, 3.0]))),
    ("around decimals", lambda m: m.around(A * 100, 1)),
    ("rint", lambda m: m.rint(A * 7)),
    ("array_split", lambda m: m.array_split(np.arange(7.0), 3)[1]),
    ("array_split last", lambda m: m.array_split(A, 3, axis=1)[2]),
    ("hsplit", lambda m: m.hsplit(A, 2)[1]),
    ("vsplit", lambda m: m.vsplit(S, [1, 3])[1]),
    ("dsplit", lambda m: m.dsplit(A.reshape(3, 2, 2), 2)[0]),
    ("broadcast_arrays", lambda m: m.broadcast_arrays(V, A)[0]),
    ("ediff1d", lambda m: m.ediff1d(A)),
    ("kron", lambda m: m.kron(A[:2, :2], S[:3, :2])),
    ("cross", lambda m: m.cross(A[:, :3], B[:, :3])),
    ("cross axis", lambda m: m.cross(A[:, :3].T, B[:, :3].T, axis=0)),
    ("nanvar", lambda m: m.nanvar(np.array([[2.0, np.nan, 4.0],
                                            [3.0, 5.0, 8.0]]), axis=1)),
    ("nanstd", lambda m: m.nanstd(np.array([2.0, np.nan, 4.0, 7.0]))),
    ("nancumsum", lambda m: m.nancumsum(np.array([2.0, np.nan, 4.0]))),
    ("nancumprod", lambda m: m.nancumprod(np.array([2.0, np.nan, 4.0]))),
    ("rollaxis", lambda m: m.rollaxis(A.reshape(3, 2, 2), 2)),
    ("take_along_axis", lambda m: m.take_along_axis(
        A, np.array([[0, 3], [-1, 1], [2, 2]]), 1)),
    ("take_along_axis argsort-like", lambda m: m.take_along_axis(
        A, np.array([[2, 0, 1, 0]]), 0)),
    ("trapz", lambda m: m.trapz(A, axis=1)),
    ("trapz x", lambda m: m.trapz(A, np.array([0.0, 0.5, 2.0, 2.5]))),
    ("polyval", lambda m: m.polyval(np.array([2.0, -1.0, 0.5]), V)),
    ("vander", lambda m: m.vander(V, 3)),
    ("vander increasing", lambda m: m.vander(V, increasing=True)),
    ("logspace", lambda m: m.logspace(0.0, 2.0, 5)),
    ("geomspace", lambda m: m.geomspace(1.0, 1000.0, 4)),
    ("geomspace negative", lambda m: m.geomspace(-1.0, -16.0, 5)),
    ("diagflat", lambda m: m.diagflat(A[:2, :2], 1)),
]


@pytest.mark.parametrize("name, fn", CASES, ids=[c[0] for c in CASES])
def test_matches_numpy(name, fn):
    with np.errstate(all="ignore"):
        want = np.asarray(fn(np))
    for got in (fn(tnp), tracec.function(lambda: fn(tnp))()):
        got = np.asarray(got)
        assert got.shape == want.shape, name
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-12)
    if want.dtype.kind in "fc":
        # float32 where NumPy gives float64 only for linspace/eye/tri/...
        assert np.asarray(fn(tnp)).dtype.kind == "f"


def test_shape_queries_and_result_type():
    assert tnp.shape(A) == (3, 4) and tnp.ndim(A) == 2 and tnp.size(A) == 12
    assert tnp.result_type(np.int32, np.float16) == np.float16
    assert tnp.result_type(A, 1) == np.float64
    assert tnp.result_type(np.ones(2, np.int32), 2.0) == np.float32
    assert tracec.function(lambda x: tnp.size(x, 1) + tnp.ndim(x))(A) == 6


def test_gradients_match_pytorch():
    def loss(a, b):
        return (tnp.sum(tnp.expm1(a) * tnp.sinh(b)) +
                tnp.sum(tnp.logaddexp(a, b) * tnp.cosh(a)) +
                tnp.sum(tnp.tensordot(a, b.T, 1)) +
                tnp.sum(tnp.hypot(a, b) * tnp.log2(tnp.abs(b) + 1)) +
                tnp.trace(tnp.outer(a[0], b[1])) +
                tnp.sum(tnp.triu(tnp.diag(a[1]) * 2.0) ** 2) +
                tnp.sum(tnp.diff(a, axis=1) * tnp.tan(b[:, 1:] * 0.3)))

    def torch_loss(a, b):
        return (torch.sum(torch.expm1(a) * torch.sinh(b)) +
                torch.sum(torch.logaddexp(a, b) * torch.cosh(a)) +
                torch.sum(a @ b.T) +
                torch.sum(torch.hypot(a, b) * torch.log2(torch.abs(b) + 1)) +
                torch.trace(torch.outer(a[0], b[1])) +
                torch.sum(torch.triu(torch.diag(a[1]) * 2.0) ** 2) +
                torch.sum(torch.diff(a, dim=1) * torch.tan(b[:, 1:] * 0.3)))

    ga, gb = tracec.grad(loss, (0, 1))(A, B)
    ta = torch.tensor(A, requires_grad=True)
    tb = torch.tensor(B, requires_grad=True)
    torch_loss(ta, tb).backward()
    np.testing.assert_allclose(ga, ta.grad.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gb, tb.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_tensordot_and_full_refuse_bad_arguments():
    a, b = np.ones((3, 2, 2)), np.ones((2,))
    with pytest.raises(ValueError, match="exceed the operands' ranks"):
        tnp.tensordot(a, b, axes=2)
    with pytest.raises(ValueError, match="differ in length"):
        tnp.tensordot(a, b, axes=([0], [0, 1]))
    with pytest.raises(TypeError, match="axes must be an int"):
        tnp.tensordot(a, b, axes=("bad", "axes"))
    with pytest.raises(TypeError, match="axes must be an int"):
        tnp.tensordot(a, b, axes="badaxes")
    with pytest.raises(TypeError, match="a shape must be integers"):
        tnp.zeros(1.5)
    with pytest.raises(ValueError, match="negative dimensions"):
        tnp.ones((-1, 1))
