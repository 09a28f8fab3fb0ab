"""A griffe extension for the API reference: c4engine's reStructuredText docstrings as Markdown.

The docstrings are written for Python's help() and doctest, in the reST
habits of the standard library; mkdocstrings renders Markdown.  This turns
the three reST constructs they use into their Markdown equivalents before
rendering:

* doctest blocks (``>>>`` lines up to a blank line) become ``pycon`` code blocks
  -- left alone, Markdown would run them together into one paragraph (those
  indented as a literal block already read as code);
* cross-references such as ``:func:`~c4engine.jobs.run_jobs``` become links
  (autorefs' ``[text][identifier]``) when the name resolves to a c4engine
  object, relative names as Sphinx resolves them (the current class, module,
  package), and plain code otherwise;
* the ``::`` that introduces a literal block goes as reST drops it (the
  indented block after it is already a Markdown code block).

mkdocs.yml loads it by path (``extensions: [docs/rest_docstrings.py]``).
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Alias, AliasResolutionError, CyclicAliasError, Extension, Module, Object

_ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj):`(~?)([^`<]+?)(?:\s*<([^>]+)>)?`")


def _find(package: Module, path: str) -> str | None:
    """Where ``path`` (dotted, from the package's name) is documented, if it names one of its objects.

    An imported name leads to its definition, and names imported from
    outside the package lead nowhere.
    """
    head, _, rest = path.partition(".")
    if head != package.name:
        return None
    if not rest:
        return package.path
    try:
        found = package[rest]
        if isinstance(found, Alias):
            found = found.final_target
    except (KeyError, ValueError, AttributeError, AliasResolutionError, CyclicAliasError):
        return None
    return found.path if found.path.partition(".")[0] == package.name else None


def _target(package: Module, owner: Object, name: str) -> str | None:
    """The full path ``name`` refers to from ``owner``'s docstring, or None outside ``package``."""
    scope: Object | None = owner
    while scope is not None:
        found = _find(package, f"{scope.path}.{name}")
        if found is not None:
            return found
        scope = scope.parent
    return _find(package, name)


def _doctest_blocks(text: str) -> str:
    lines = text.split("\n")
    result: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        indent = line[: len(line) - len(line.lstrip())]
        # Indented four spaces or more (a literal block after "::"), it is already Markdown code.
        if not line.lstrip().startswith(">>>") or len(indent) >= 4:
            result.append(line)
            index += 1
            continue
        result.append(f"{indent}```pycon")
        while index < len(lines) and lines[index].strip():
            result.append(lines[index])
            index += 1
        result.append(f"{indent}```")
    return "\n".join(result)


def to_markdown(text: str, package: Module, owner: Object) -> str:
    """``text`` (a docstring of ``owner``, an object of ``package``) in Markdown."""

    def link(match: re.Match[str]) -> str:
        short, name, explicit = match.group(1), match.group(2).strip(), match.group(3)
        target = _target(package, owner, (explicit or name).strip())
        label = name.rsplit(".", 1)[-1] if short else name
        return f"[`{label}`][{target}]" if target else f"`{label}`"

    text = _doctest_blocks(text)
    # reST: "text::" reads "text:", "text ::" reads "text", and "::" alone vanishes.
    text = re.sub(r"^[ \t]*::$", "", text, flags=re.MULTILINE)
    text = re.sub(r" ::$", "", text, flags=re.MULTILINE)
    text = re.sub(r"::$", ":", text, flags=re.MULTILINE)
    return _ROLE.sub(link, text)


class RestDocstrings(Extension):
    """Rewrites every docstring of a loaded package (see the module's docstring)."""

    def on_package(self, *, pkg: Module, **kwargs: Any) -> None:
        self._convert(pkg, pkg)

    def _convert(self, package: Module, owner: Object) -> None:
        if owner.docstring is not None:
            owner.docstring.value = to_markdown(owner.docstring.value, package, owner)
        for member in owner.members.values():
            if not isinstance(member, Alias):
                self._convert(package, member)
