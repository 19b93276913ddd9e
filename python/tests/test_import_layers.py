"""The tracec package is built in layers: a module imports only modules of
its own layer or of lower ones (at module level or inside a function), and
no import chain goes in a circle. New modules must be given a layer here.

The layers, bottom up (see each module's docstring):
  extension   the C++ tracer and runtime (pybind11)
  core        values and how an op runs (recorded or eager), nested
              structures, variable reads hoisted out of traced bodies
  ops         tracec.numpy, tracec.nn, random numbers, control flow,
              custom gradients: ops through _core.apply; autograph (Python
              control flow converted to control flow ops)
  variables   tracec.Variable (its operators are tracec.numpy's)
  tape        tape recording, and gradients of what a tape recorded
  functions   tracec.function: tracing, signatures, caches, concrete
              functions (and their calls under tapes), imported graphs
  transforms  how grad, vjp, jvp, jacobians, tf.gradients and the seeds'
              gradients_function are traced
  api         the transforms' public wrappers (jax/_src/api.py)
  user        GradientTape, Module and the optimizers, checkpoints
  package     tracec/__init__.py
"""
import ast
import os


PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))), "tracec")

LAYERS = [
    ("extension", ["_tracec"]),
    ("core", ["_tree", "dlpack", "_core", "hoisted_reads"]),
    ("ops", ["numpy", "nn", "random", "distributed", "control_flow",
             "custom_gradients",
             "custom_jvp",
             "autograph_operators", "_autograph_ast", "_autograph_jumps",
             "autograph"]),
    ("variables", ["variables", "devices"]),
    ("tape", ["tape"]),
    ("functions", ["signatures", "concrete_function", "function",
                   "graphdef", "saved"]),
    ("transforms", ["reverse", "forward", "symbolic_gradients",
                    "backprop", "batching"]),
    ("api", ["api"]),
    ("user", ["gradient_tape", "module", "checkpoints"]),
    ("package", ["__init__"]),
]
LAYER = {module: (i, name) for i, (name, modules) in enumerate(LAYERS)
         for module in modules}


def package_modules():
    return sorted(f[:-3] for f in os.listdir(PACKAGE) if f.endswith(".py"))


def imports_of(module):
    """[(line, imported module)] for every relative import of `module`
    (`from . import x`, `from .x import y`) and every absolute import of
    tracec (`import tracec.x`, `from tracec.x import y`), wherever it is."""
    path = os.path.join(PACKAGE, module + ".py")
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level > 1:
                found.append((node.lineno, "<outside tracec>"))
                continue
            if node.level == 1:
                target = node.module
            elif node.module and (node.module == "tracec"
                                  or node.module.startswith("tracec.")):
                target = node.module[len("tracec."):] \
                    if node.module != "tracec" else None
            else:
                continue
            if target is None:
                # from . import a, b: modules, or names of __init__.
                for alias in node.names:
                    name = alias.name
                    found.append((node.lineno, name if name in LAYER or
                                  os.path.exists(os.path.join(
                                      PACKAGE, name + ".py"))
                                  else "__init__"))
            else:
                found.append((node.lineno, target.split(".")[0]))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tracec":
                    found.append((node.lineno, "__init__"))
                elif alias.name.startswith("tracec."):
                    found.append((node.lineno,
                                  alias.name[len("tracec."):].split(".")[0]))
    return sorted(found)


def layer_errors(modules):
    """A message for each import of `modules` that goes up the layers."""
    errors = []
    for module in modules:
        if module not in LAYER:
            continue
        level, layer = LAYER[module]
        for line, target in imports_of(module):
            if target not in LAYER:
                errors.append(f"tracec/{module}.py:{line} imports {target}, "
                              "which has no layer")
                continue
            target_level, target_layer = LAYER[target]
            if target_level > level:
                errors.append(
                    f"tracec/{module}.py:{line} imports {target} (layer "
                    f"'{target_layer}') from layer '{layer}', below it")
    return errors


def find_cycle(modules):
    """An import cycle among `modules` ([a, b, ..., a]), or None."""
    graph = {m: sorted({t for _, t in imports_of(m) if t != m})
             for m in modules}
    state = {}  # module -> "visiting" | "done"
    path = []

    def visit(module):
        state[module] = "visiting"
        path.append(module)
        for target in graph.get(module, []):
            if state.get(target) == "visiting":
                return path[path.index(target):] + [target]
            if target in graph and target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[module] = "done"
        return None

    for module in graph:
        if module not in state:
            cycle = visit(module)
            if cycle:
                return cycle
    return None


def test_every_module_has_a_layer():
    missing = [m for m in package_modules() if m not in LAYER]
    assert not missing, (
        f"tracec modules without a layer in {__file__}'s LAYERS: {missing}; "
        "add each to the layer it belongs to")


def test_imports_go_down_the_layers():
    errors = layer_errors(package_modules())
    assert not errors, "imports up the layers:\n  " + "\n  ".join(errors)


def test_no_import_cycle():
    cycle = find_cycle(package_modules())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_checks_see_imports_inside_functions(tmp_path, monkeypatch):
    """The checks find an import up the layers hidden in a function body,
    and the cycle it closes."""
    (tmp_path / "variables.py").write_text(
        "import numpy as np\n\n\ndef f():\n"
        "    from .tape import Tape\n    return Tape\n")
    (tmp_path / "tape.py").write_text("from . import variables\n")
    monkeypatch.setitem(globals(), "PACKAGE", str(tmp_path))
    assert imports_of("variables") == [(5, "tape")]
    assert layer_errors(["variables", "tape"]) == [
        "tracec/variables.py:5 imports tape (layer 'tape') from layer "
        "'variables', below it"]
    assert find_cycle(["variables", "tape"]) == [
        "variables", "tape", "variables"]
