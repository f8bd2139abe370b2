"""Write the .deb's control file from packaging/linux/control.in, with a validated Depends value.

Usage (from the repository root):
    PYTHONPATH=. python packaging/debian_control.py STAGE_DIR --version V --arch A --installed-kb N
        [--maintainer M] [--depends VALUE]
Without --depends the value is computed by dpkg-shlibdeps over the staged bundle (shlibdeps.py).
Fields are substituted as plain text (nothing in a value is interpreted), and a Depends value that
does not have the shape `pkg (>= ver), pkg | pkg, ...` stops the build with the value shown.
Everything printed for people goes to stderr; stdout stays empty.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "linux" / "control.in"

# One Debian relation: a package name, an optional :arch qualifier, an optional (op version).
_PACKAGE = r"[a-z0-9][a-z0-9+.\-]+(?::[a-z0-9\-]+)?"
_VERSION = r"\(\s*(?:<<|<=|=|>=|>>)\s*[A-Za-z0-9.+~:\-]+\s*\)"
_RELATION = re.compile(rf"{_PACKAGE}(?:\s*{_VERSION})?")


class ControlError(ValueError):
    """A field value that would make a broken control file; the message says which and why."""


def validate_depends(value: str) -> str:
    """The value, stripped, if every comma-separated item is `pkg [(op ver)]` alternatives joined by |."""
    value = value.strip()
    if not value:
        raise ControlError("Depends is empty: dpkg-shlibdeps found no system library at all")
    if "\n" in value:
        raise ControlError(
            f"Depends spans several lines (something else was printed with it): {value[:300]!r}"
        )
    for item in value.split(","):
        for alternative in item.split("|"):
            if not _RELATION.fullmatch(alternative.strip()):
                raise ControlError(
                    f"Depends is malformed at {alternative.strip()[:80]!r}; expected "
                    f"'pkg (>= ver), pkg | pkg, ...'. The whole value: {value[:300]!r}"
                )
    return value


def render_control(template: str, fields: dict[str, str]) -> str:
    """The template with each @NAME@ replaced by fields[NAME] verbatim; an unknown or unfilled
    placeholder, or a value with a line break (which would start a new field), is an error."""
    for name, value in fields.items():
        if "\n" in value:
            raise ControlError(f"the control field value for @{name}@ has a line break: {value[:200]!r}")
    placeholders = set(re.findall(r"@([A-Z_]+)@", template))
    missing = placeholders - set(fields)
    if missing:
        raise ControlError(f"no value for {', '.join(sorted(missing))} in the control template")
    return re.sub(r"@([A-Z_]+)@", lambda match: fields[match.group(1)], template)


def write_control(stage: Path, fields: dict[str, str], template: Path = TEMPLATE) -> Path:
    """Validate Depends, fill the template and write STAGE/DEBIAN/control (0644)."""
    fields = {**fields, "DEPENDS": validate_depends(fields["DEPENDS"])}
    control = stage / "DEBIAN" / "control"
    control.write_text(render_control(template.read_text(encoding="utf-8"), fields), encoding="utf-8")
    control.chmod(0o644)
    return control


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="debian_control.py", description=__doc__.splitlines()[0])
    parser.add_argument("stage", type=Path, help="the package tree (it holds DEBIAN/)")
    parser.add_argument("--version", required=True)
    parser.add_argument("--arch", required=True)
    parser.add_argument("--installed-kb", required=True)
    parser.add_argument("--maintainer", default="Folio maintainers <folio@localhost>")
    parser.add_argument("--depends", help="use this value instead of running dpkg-shlibdeps")
    args = parser.parse_args(argv)
    if not (args.stage / "DEBIAN").is_dir():
        parser.error(f"{args.stage} has no DEBIAN/ folder")
    if args.depends is None:
        from shlibdeps import shlibs_depends  # beside this script: sys.path[0]

        depends = shlibs_depends(args.stage)
    else:
        depends = args.depends
    fields = {
        "VERSION": args.version,
        "ARCH": args.arch,
        "INSTALLED_KB": args.installed_kb,
        "MAINTAINER": args.maintainer,
        "DEPENDS": depends,
    }
    try:
        control = write_control(args.stage, fields)
    except ControlError as error:
        print(f"debian_control.py: {error}", file=sys.stderr)
        return 1
    print(f"== {control}: Depends: {fields['DEPENDS']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
