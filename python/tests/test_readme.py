"""The README's Python example runs as written (and the package README's too)."""

import re

from conftest import REPO


def python_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def run(code, capsys):
    exec(compile(code, "README", "exec"), {"__name__": "readme"})
    return capsys.readouterr().out


def test_repository_readme_example(capsys):
    blocks = python_blocks((REPO / "README.md").read_text())
    assert len(blocks) == 1
    out = run(blocks[0], capsys)
    assert out.splitlines() == ["2.25 intersecting", "[Fraction(1, 3), Fraction(1, 3)]"]


def test_package_readme_example(capsys):
    blocks = python_blocks((REPO / "python" / "README.md").read_text())
    assert len(blocks) == 1
    out = run(blocks[0], capsys)
    assert out.split()[0] == "1.25" and out.split()[-1] == "separated"
