"""tracec: Python functions traced into the `trace` dialect, differentiated
and compiled with MLIR, called with NumPy arrays.

>>> import numpy as np, tracec
>>> @tracec.function
... def f(x):
...     return tracec.numpy.sum(x * x)
>>> f(np.arange(3, dtype=np.float32))
array(5., dtype=float32)
"""
from ._tracec import __version__  # noqa: F401  (CMake's project version)
from ._tracec import CompileError, TraceError, compile_module  # noqa: F401
from ._tracec import get_num_threads, set_num_threads  # noqa: F401
from . import autograph, distributed, numpy, nn, random  # noqa: F401
from .concrete_function import abi_library  # noqa: F401
from .control_flow import cond, fori_loop, scan, while_loop  # noqa: F401
from .custom_gradients import (checkpoint, custom_gradient,  # noqa: F401
                               custom_vjp)
from .custom_jvp import custom_jvp  # noqa: F401
from .function import (ConcreteFunction, Function, TensorSpec,  # noqa: F401
                       defun, device, function, jit)
from .api import (eval_shape, grad, gradients,  # noqa: F401
                  gradients_function, hessian, hessians, hvp, implicit_grad,
                  implicit_value_and_grad, jacfwd, jacrev, jvp, linearize,
                  make_vjp, val_and_grad_function, value_and_grad, vjp,
                  vmap)
from .symbolic_gradients import AggregationMethod  # noqa: F401
from . import _tree as tree_util  # noqa: F401
from ._tree import register_dataclass, register_pytree_node  # noqa: F401
from .gradient_tape import GradientTape  # noqa: F401
from .module import SGD, Adam, Module, Optimizer  # noqa: F401
from .checkpoints import Checkpoint  # noqa: F401
from .variables import Variable  # noqa: F401
from .devices import device_put, on_device  # noqa: F401
from .dlpack import from_dlpack, to_dlpack  # noqa: F401
from .graphdef import GraphFunction, import_graphdef  # noqa: F401
from .saved import LoadedFunction, load, save  # noqa: F401
from . import _core as _core_module
from ._core import init_scope, stop_gradient  # noqa: F401

float16, float32, float64 = numpy.float16, numpy.float32, numpy.float64
int32, int64, bool_ = numpy.int32, numpy.int64, numpy.bool_


def print(x, message=""):  # noqa: A001
    """Prints x when the function runs, in program order with the other
    stateful ops (trace.print); eagerly, prints now."""
    from . import _tracec as _C
    if _core_module.is_tracing():
        _core_module._effects += 1
        _core_module._set_location()
        _C.print(_core_module.to_value(x), message)
    else:
        import builtins
        builtins.print(*([message] if message else []), _core_module.to_array(x))
