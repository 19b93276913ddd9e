"""tracec: traced functions compiled with MLIR."""
from ._tracec import CompileError, TraceError, compile_module  # noqa: F401
