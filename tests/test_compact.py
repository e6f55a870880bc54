"""A file's text is held at about a byte a character for the run, and reads back exactly (`jitlint.compact`)."""

import sys
from pathlib import Path

import pytest

from jitlint.compact import compact, expand
from jitlint.project import ModuleInfo
from jitlint.source import SourceFile, parse_text

LONG = "def f(x):\n    return x\n" * 200


@pytest.mark.parametrize("text", [LONG, LONG + "# café\n", LONG + "# → ←\n", LONG + "# 🤗\n", "🤗", "\ud800 lone",
                                  "", "é"])
def test_a_text_reads_back_exactly(text):
    assert expand(compact(text)) == text


def test_a_text_with_a_wide_character_is_kept_as_utf8():
    text = LONG + '"""Models from 🤗 Transformers."""\n'
    source = parse_text(Path("m.py"), "m.py", text)
    stored = source.__dict__["_text_stored"]
    assert isinstance(stored, bytes) and 3 * sys.getsizeof(stored) < sys.getsizeof(text)
    assert source.text == text
    module = ModuleInfo.build(Path("m.py"), "m.py", source.tree, linted=True, text=source.text)
    assert module.__dict__["_text_stored"] is stored and module.text == text  # one copy for both
    assert ModuleInfo.build(Path("m.py"), "m.py", source.tree, linted=False, text=text).text is None


def test_narrow_texts_are_kept_as_they_are():
    for text in (LONG, LONG + "# café\n"):  # 1 byte a character already
        assert compact(text) is text
    assert SourceFile(Path("m.py"), "m.py", LONG, None).__dict__["_text_stored"] is LONG


def test_the_text_is_a_required_field():
    with pytest.raises(TypeError):
        SourceFile(Path("m.py"), "m.py")
