#!/usr/bin/env python3
"""Generates the SDK's protocol stubs (src/arena/v1) from the repository's proto/arena/v1.

    python3 sdk/python/tools/generate.py           # rewrite the committed stubs
    python3 sdk/python/tools/generate.py --check   # fail if they differ from what proto/ gives

The stubs are committed so that `pip install ./sdk/python` needs neither grpcio-tools nor the
repository's proto/ (a wheel or sdist holds only sdk/python); the check (run by the SDK's tests
in CI) keeps them equal to the protos. They are generated with one pinned grpcio-tools, whose
output also fixes the runtime versions pyproject.toml requires (grpcio, protobuf).
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
STUBS = SDK / "src" / "arena" / "v1"
# Files in STUBS that are written by hand, not generated.
HAND_WRITTEN = {"__init__.py"}


def generate(out: pathlib.Path) -> None:
    """Writes the stubs of every proto/arena/v1/*.proto under `out` (as out/arena/v1/...)."""
    from importlib.metadata import version

    found = version("grpcio-tools")
    if found != GRPCIO_TOOLS:
        sys.exit(
            f"generate.py needs grpcio-tools=={GRPCIO_TOOLS} (the committed stubs' generator), "
            f"found {found}: pip install grpcio-tools=={GRPCIO_TOOLS}"
        )
    from grpc_tools import protoc

    protos = sorted(p.relative_to(PROTO_ROOT).as_posix() for p in (PROTO_ROOT / "arena" / "v1").glob("*.proto"))
    if not protos:
        sys.exit(f"no .proto files under {PROTO_ROOT / 'arena' / 'v1'}")
    include = pathlib.Path(protoc.__file__).parent / "_proto"
    args = [
        "protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *protos,
    ]
    if protoc.main(args) != 0:
        sys.exit("protoc failed on proto/arena/v1 (its message is above)")


def generated_names(directory: pathlib.Path) -> set:
    return {p.name for p in directory.iterdir() if p.is_file() and p.name not in HAND_WRITTEN}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        fresh = pathlib.Path(tmp) / "arena" / "v1"
        generate(pathlib.Path(tmp))
        want = generated_names(fresh)
        have = generated_names(STUBS) if STUBS.is_dir() else set()
        if args.check:
            missing = sorted(want - have)
            extra = sorted(have - want)
            changed = sorted(n for n in want & have if not filecmp.cmp(fresh / n, STUBS / n, shallow=False))
            if missing or extra or changed:
                for what, names in (("missing", missing), ("not generated", extra), ("stale", changed)):
                    for n in names:
                        print(f"{STUBS / n}: {what}", file=sys.stderr)
                print("the stubs do not match proto/: run python3 sdk/python/tools/generate.py", file=sys.stderr)
                return 1
            print(f"{len(want)} stub files match proto/arena/v1")
            return 0
        STUBS.mkdir(parents=True, exist_ok=True)
        for n in have - want:
            (STUBS / n).unlink()
        for n in sorted(want):
            (STUBS / n).write_bytes((fresh / n).read_bytes())
        print(f"wrote {len(want)} stub files to {STUBS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
