#!/usr/bin/env python3
"""Generates the SDK's protocol stubs (src/arena/...) from every .proto under the repository's
proto/arena: the platform's envelopes and services (proto/arena/v1 → arena.v1) and each game's
own messages (proto/arena/<game>/v1 → arena.<game>.v1), found by glob, so a game's new .proto
needs no change here.

    python3 sdk/python/tools/generate.py           # rewrite the committed stubs
    python3 sdk/python/tools/generate.py --check   # fail if they differ from what proto/ gives

The stubs are committed so that `pip install ./sdk/python` needs neither grpcio-tools nor the
repository's proto/ (a wheel or sdist holds only sdk/python); the check (run by the SDK's tests
in CI) keeps them equal to the protos. They are generated with one pinned grpcio-tools, whose
output also fixes the runtime versions pyproject.toml requires (grpcio, protobuf).

A generated file is one whose name ends in `_pb2.py`, `_pb2.pyi` or `_pb2_grpc.py`; every
other file under src/arena is written by hand and left alone, except that a package directory
the stubs need gets an `__init__.py` (a docstring) when it has none, as protoc writes none.
"""
import argparse
import filecmp
import pathlib
import sys
import tempfile

# The grpcio-tools the committed stubs come from. Changing it changes the generated code and
# the minimum grpcio and protobuf the stubs accept: update pyproject.toml's dependencies with it.
GRPCIO_TOOLS = "1.85.1"

SDK = pathlib.Path(__file__).resolve().parents[1]
PROTO_ROOT = SDK.parents[1] / "proto"
# protoc writes `arena/...` under its output directory, so the stubs' root is src/.
SRC = SDK / "src"
GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py")


def is_generated(path: pathlib.Path) -> bool:
    return path.is_file() and path.name.endswith(GENERATED_SUFFIXES)


def protos() -> list:
    """Every .proto under proto/arena, relative to proto/ (as protoc wants them)."""
    found = sorted(p.relative_to(PROTO_ROOT).as_posix() for p in (PROTO_ROOT / "arena").rglob("*.proto"))
    if not found:
        sys.exit(f"no .proto files under {PROTO_ROOT / 'arena'}")
    return found


def generate(out: pathlib.Path) -> None:
    """Writes the stubs of every proto/arena/**/*.proto under `out` (as out/arena/...)."""
    from importlib.metadata import version

    found = version("grpcio-tools")
    if found != GRPCIO_TOOLS:
        sys.exit(
            f"generate.py needs grpcio-tools=={GRPCIO_TOOLS} (the committed stubs' generator), "
            f"found {found}: pip install grpcio-tools=={GRPCIO_TOOLS}"
        )
    from grpc_tools import protoc

    include = pathlib.Path(protoc.__file__).parent / "_proto"
    args = [
        "protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *protos(),
    ]
    if protoc.main(args) != 0:
        sys.exit("protoc failed on proto/arena (its message is above)")


def generated_files(root: pathlib.Path) -> set:
    """The generated files under root/arena, relative to root."""
    base = root / "arena"
    if not base.is_dir():
        return set()
    return {p.relative_to(root) for p in base.rglob("*") if is_generated(p)}


def packages(files: set) -> set:
    """Every package directory (relative to src/) the generated files need, `arena` itself
    excepted (it is the SDK's own)."""
    out = set()
    for f in files:
        d = f.parent
        while d != pathlib.Path("arena"):
            out.add(d)
            d = d.parent
    return out


def init_text(package: pathlib.Path) -> str:
    dotted = ".".join(package.parts)
    return (f'"""Protocol stubs of package `{dotted}`, generated from proto/{package.as_posix()} by '
            f'sdk/python/tools/generate.py."""\n')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        fresh = pathlib.Path(tmp)
        generate(fresh)
        want = generated_files(fresh)
        have = generated_files(SRC)
        inits = {p / "__init__.py" for p in packages(want)}
        if args.check:
            missing = sorted(want - have) + sorted(i for i in inits if not (SRC / i).is_file())
            extra = sorted(have - want)
            changed = sorted(n for n in want & have if not filecmp.cmp(fresh / n, SRC / n, shallow=False))
            if missing or extra or changed:
                for what, names in (("missing", missing), ("not generated", extra), ("stale", changed)):
                    for n in names:
                        print(f"{SRC / n}: {what}", file=sys.stderr)
                print("the stubs do not match proto/: run python3 sdk/python/tools/generate.py", file=sys.stderr)
                return 1
            print(f"{len(want)} stub files match proto/arena")
            return 0
        for n in sorted(have - want):
            (SRC / n).unlink()
        for n in sorted(want):
            (SRC / n).parent.mkdir(parents=True, exist_ok=True)
            (SRC / n).write_bytes((fresh / n).read_bytes())
        for i in sorted(inits):
            if not (SRC / i).is_file():
                (SRC / i).write_text(init_text(i.parent))
        print(f"wrote {len(want)} stub files under {SRC / 'arena'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
