"""The committed stubs are what proto/ generates (tools/generate.py --check)."""
import pathlib
import subprocess
import sys

TOOL = pathlib.Path(__file__).resolve().parents[1] / "tools" / "generate.py"


def test_committed_stubs_match_the_protos():
    out = subprocess.run([sys.executable, str(TOOL), "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr + out.stdout
