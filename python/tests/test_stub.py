"""The .pyi stub matches the module: every public name in the stub exists in `proxima` and
every public name of `proxima` is in the stub, class members (methods and properties)
included, and every public function and class has a docstring."""

import ast
import inspect
import pathlib

import proxima

STUB = pathlib.Path(proxima.__file__).with_name("__init__.pyi")


def stub_tree():
    return ast.parse(STUB.read_text())


def stub_top_level():
    """Names the stub declares for users (helpers such as ArrayLike start with a capital and
    are type aliases: the stub marks them by assigning, not annotating)."""
    names = {}
    for node in stub_tree().body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = node
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
    return names


def public(names):
    return {n for n in names if not n.startswith("_") or n == "__version__"}


def test_every_public_name_is_in_the_stub_and_the_reverse():
    stub = public(stub_top_level())
    module = public(proxima.__all__)
    assert stub == module, f"only in the stub: {stub - module}; only in the module: {module - stub}"
    module_dir = public(n for n in dir(proxima) if not inspect.ismodule(getattr(proxima, n)))
    assert module_dir == module, f"exported but not in __all__: {module_dir - module}"


def test_class_members_match():
    for name, node in stub_top_level().items():
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(proxima, name)
        if issubclass(cls, BaseException):
            continue
        declared = {
            n.name for n in node.body if isinstance(n, ast.FunctionDef) and (not n.name.startswith("_"))
        }
        runtime = {
            m
            for m in vars(cls)
            if not m.startswith("_")
        }
        # Members inherited from proxima.Shape are declared once, on Shape.
        assert declared == runtime, f"{name}: only in the stub {declared - runtime}, only in the class {runtime - declared}"


def test_base_classes_match():
    for name, node in stub_top_level().items():
        if isinstance(node, ast.ClassDef):
            bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
            cls = getattr(proxima, name)
            assert [c.__name__ for c in cls.__bases__] == (bases or ["object"]), name


def test_function_signatures_match():
    for name, node in stub_top_level().items():
        if not isinstance(node, ast.FunctionDef):
            continue
        stub_params = [a.arg for a in node.args.args + node.args.kwonlyargs]
        if node.args.kwarg:
            stub_params.append("**" + node.args.kwarg.arg)
        runtime = inspect.signature(getattr(proxima, name))
        runtime_params = [
            ("**" + p.name) if p.kind is p.VAR_KEYWORD else p.name for p in runtime.parameters.values()
        ]
        assert stub_params == runtime_params, name


def test_docstrings():
    for name in proxima.__all__:
        obj = getattr(proxima, name)
        if inspect.isclass(obj) or callable(obj):
            assert obj.__doc__ and obj.__doc__.strip(), f"{name} has no docstring"
    assert "Query settings" in proxima.__doc__
