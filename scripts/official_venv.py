"""The official ``claude-agent-sdk`` as a development tool, pinned here and only here.

The compatibility harness (``tests/compat``) runs the same programs on both
packages, and ``scripts/bench.py`` and ``scripts/official_surface.py`` measure
against it. claude_wrap never imports it.

    python scripts/official_venv.py             # make build/official-venv (and fetch the examples) unless done
    python scripts/official_venv.py --python    # ... then print the venv's interpreter
    python scripts/official_venv.py --examples  # ... then print the examples directory
    python scripts/official_venv.py --pin 0.2.190   # move the pin (this file), then as above

Both steps go through pip with the user's own configuration (index, proxy,
certificates) and do nothing when their result is already there. The
examples come from the package's source distribution, unpacked under
``build/``; they are the official package's code and stay out of this
repository.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

PACKAGE = "claude-agent-sdk"
VERSION = "0.2.189"
# What the published examples import besides the package (streaming_mode_trio.py).
EXAMPLE_NEEDS = ("trio",)

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
VENV = BUILD / "official-venv"
SDIST_DIR = BUILD / "official-sdist"
EXAMPLES = BUILD / f"official-examples-{VERSION}"
_STAMP = VENV / ".installed"
_REQUIREMENTS = (f"{PACKAGE}=={VERSION}", *EXAMPLE_NEEDS)
_EXAMPLES_STAMP = EXAMPLES / ".complete"


def python() -> Path:
    """The official venv's interpreter (it may not exist yet)."""
    if sys.platform == "win32":  # pragma: no cover - the harness runs on POSIX
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def ensure_venv() -> Path:
    """Create the venv with the pinned package unless it is there; return its python."""
    wanted = "\n".join(_REQUIREMENTS)
    if python().exists() and _STAMP.exists() and _STAMP.read_text(encoding="utf-8") == wanted:
        return python()
    if not python().exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run(
        [str(python()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *_REQUIREMENTS],
        check=True,
    )
    _STAMP.write_text(wanted, encoding="utf-8")
    return python()


def _sdist() -> Path:
    name = f"{PACKAGE.replace('-', '_')}-{VERSION}.tar.gz"
    path = SDIST_DIR / name
    if not path.exists():
        subprocess.run(
            [
                str(ensure_venv()),
                "-m",
                "pip",
                "download",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--dest",
                str(SDIST_DIR),
                f"{PACKAGE}=={VERSION}",
            ],
            check=True,
        )
    if not path.exists():
        raise SystemExit(f"pip did not leave {name} in {SDIST_DIR}")
    return path


def ensure_examples() -> Path:
    """Unpack the pinned sdist's ``examples/`` under build/ unless done; return it."""
    if _EXAMPLES_STAMP.exists():
        return EXAMPLES
    shutil.rmtree(EXAMPLES, ignore_errors=True)
    with tarfile.open(_sdist()) as archive:
        members = []
        for member in archive.getmembers():
            parts = Path(member.name).parts
            if ".." in parts or Path(member.name).is_absolute():
                raise SystemExit(f"refusing {member.name!r} from the sdist")
            if len(parts) > 2 and parts[1] == "examples" and (member.isfile() or member.isdir()):
                member.name = str(Path(*parts[2:]))
                members.append(member)
        if not members:
            raise SystemExit(f"the sdist of {PACKAGE} {VERSION} has no examples/ directory")
        EXAMPLES.mkdir(parents=True)
        archive.extractall(EXAMPLES, members=members, **_safe_extract())
    _EXAMPLES_STAMP.touch()
    return EXAMPLES


def _safe_extract() -> dict[str, str]:
    # Python 3.12+ warns without a filter; "data" refuses links and absolute paths.
    return {"filter": "data"} if hasattr(tarfile, "data_filter") else {}


def _pin(version: str) -> int:
    """Rewrite ``VERSION`` above; the next run builds that version's venv."""
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise SystemExit(f"not a release version: {version!r}")
    source = Path(__file__).read_text(encoding="utf-8")
    pinned, count = re.subn(r'^VERSION = "[^"]*"$', f'VERSION = "{version}"', source, count=1, flags=re.M)
    if count != 1:
        raise SystemExit("VERSION line not found")
    Path(__file__).write_text(pinned, encoding="utf-8")
    print(f"official package pinned at {version}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    show = parser.add_mutually_exclusive_group()
    show.add_argument("--python", action="store_true", help="print the official venv's interpreter")
    show.add_argument("--examples", action="store_true", help="print the unpacked examples directory")
    parser.add_argument("--pin", metavar="VERSION", help="pin another version of the official package first")
    args = parser.parse_args()
    if args.pin:
        return _pin(args.pin)
    interpreter = ensure_venv()
    examples = ensure_examples()
    if args.python:
        print(interpreter)
    elif args.examples:
        print(examples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
